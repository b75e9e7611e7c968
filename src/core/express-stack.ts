/**
 * Express's router stacks, read the way Express matches them: the one reader of Express 4 and 5
 * internals (layers, Routers, sub-apps mounted with `app.use`), for the WebSocket dispatcher (which
 * must find a bridge without a request going through Express) and the migration report.
 */

/** An Express Layer: internal, and shaped differently by Express 4, Express 5 and router 2.x. */
export type Layer = any

/** The layer stack of an Express 4/5 app or Router, or undefined for anything else. */
export function stackOf(app: any): Layer[] | undefined {
  if (app === null || (typeof app !== 'function' && typeof app !== 'object')) return undefined
  if (Array.isArray(app.stack)) return app.stack
  // Express 4 creates `_router` lazily (and its `app.router` getter throws); Express 5 has `app.router`.
  if (typeof app.lazyrouter === 'function') return app._router?.stack ?? []
  if (typeof app.handle === 'function' && typeof app.set === 'function') return app.router?.stack
  return undefined
}

/**
 * The part of `path` a layer matches: for a `use()` layer, the prefix Express strips. Undefined when
 * it does not match, or on a malformed %-escape (Express fails that request before any handler).
 */
export function matchedPart(layer: Layer, path: string): string | undefined {
  if (typeof layer?.match !== 'function') return undefined
  let result: unknown
  try {
    result = layer.match(path)
  } catch {
    return undefined
  }
  if (!result) return undefined
  // Express 4 (and router 2.0) store the matched part in `layer.path`; newer routers return it.
  return result === true ? (layer.path ?? '') : (result as { path: string }).path
}

const PROBE = Symbol('express-fetch-bridge/sub-app-probe')
const subApps = new WeakMap<object, unknown>()

/**
 * `app.use(path, subApp)` keeps the sub-app only in a closure (`mounted_app`). Calling it with a
 * stand-in request reveals the sub-app: Express 4 and 5 both set the request's prototype to
 * `subApp.request` (whose `app` is the sub-app) before any user code runs; the probe stops there.
 */
function probeSubApp(handle: (req: unknown, res: unknown, next: () => void) => void): unknown {
  let found: unknown
  const target = { url: '/', method: 'GET', headers: {}, app: { request: {}, response: {} } }
  const req = new Proxy(target, {
    // Once found, an unparseable URL sends Express 4's router straight to its done callback.
    get: (t, key) => (key === 'url' && found !== undefined ? undefined : Reflect.get(t, key)),
    setPrototypeOf(_t, proto) {
      if (found !== undefined) return true
      found = (proto as { app?: unknown } | null)?.app ?? null
      throw PROBE
    },
  })
  try {
    handle(req, { setHeader() {}, getHeader() {}, locals: {} }, () => {})
  } catch {
    // The probe's own stop signal, or an Express internal tripping over the stand-in.
  }
  return found ?? undefined
}

/** The sub-app behind a `mounted_app` handle (probed once per handle), or undefined. */
function subAppOf(handle: unknown): unknown {
  if (typeof handle !== 'function' || handle.name !== 'mounted_app') return undefined
  if (!subApps.has(handle)) subApps.set(handle, probeSubApp(handle as never))
  return subApps.get(handle)
}

/**
 * What a middleware layer leads into: a Router's stack, or a mounted sub-app's (with the sub-app,
 * whose settings apply inside it). Undefined for a plain middleware function and for routes.
 */
export function innerOf(layer: Layer): { stack: Layer[]; app: unknown } | undefined {
  if (layer?.route) return undefined
  const handle = layer?.handle
  if (Array.isArray(handle?.stack)) return { stack: handle.stack, app: undefined }
  const app = subAppOf(handle)
  const stack = app === undefined ? undefined : stackOf(app)
  return stack === undefined ? undefined : { stack, app }
}
