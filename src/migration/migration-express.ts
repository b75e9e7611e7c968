/**
 * The Express side of the migration report: walks an Express 4 or 5 app's router stack (nested
 * Routers, sub-apps, `app.use` prefixes) into an ordered list of routes and bridges, each able to say
 * whether it would serve a concrete path by asking Express's own layers (`layer.match()`).
 */
import { METHODS } from 'node:http'
import { bridgeInfo, type BridgeRouting } from '../bridge/bridge-info.js'
import { innerOf, matchedPart, stackOf, type Layer } from '../core/express-stack.js'
import { expressSamples, joinPath, neighbours } from './migration-samples.js'

/** A mount point on the way to a route: an `app.use(path, …)` layer, or an assumed bridge prefix. */
export interface Mount {
  /** The path as written, for display. */
  path: string
  /** Candidate concrete prefixes. */
  samples: string[]
  /** The leading part of `path` this mount strips (per its router's rules), or undefined: no match. */
  consume(path: string): string | undefined
}

export interface ExpressRoute {
  kind: 'route'
  mounts: Mount[]
  /** Full display path (mount paths + route path). */
  path: string
  /** Upper-case methods; `*` for `.all()`. */
  methods: string[]
  /** Candidate concrete full paths. */
  samples: string[]
  /** Whether this route, on its own, serves `method path`. */
  serves(method: string, path: string): boolean
}

export interface ExpressBridge {
  kind: 'bridge'
  mounts: Mount[]
  path: string
  info: BridgeRouting
  /** The path the Fetch app sees for a full path that reaches this bridge, or undefined. */
  appPath(path: string): string | undefined
  /** The length of the mount prefix Express matched in a full path that reaches this bridge. */
  mountedLength(path: string): number
  /** Under `expressRouting`: the routing the bridge matches Hono routes by (set by the report). */
  routing?: ReturnType<NonNullable<BridgeRouting['routing']>> | undefined
}

export type Endpoint = ExpressRoute | ExpressBridge

/** Strips every mount in turn, as Express's router does (leading slash restored). */
function throughMounts(mounts: Mount[], path: string): string | undefined {
  let rest = path
  for (const mount of mounts) {
    const used = mount.consume(rest)
    if (used === undefined) return undefined
    rest = rest.slice(used.length)
    if (!rest.startsWith('/')) rest = '/' + rest
  }
  return rest
}

function isExpress4Layer(layer: Layer): boolean {
  return layer.regexp instanceof RegExp && !Array.isArray(layer.matchers)
}

function rawDisplay(raw: unknown): string {
  if (Array.isArray(raw)) return raw.map(rawDisplay).join(' | ')
  return raw instanceof RegExp ? String(raw) : String(raw)
}

function rawSamples(raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.flatMap(rawSamples)
  return typeof raw === 'string' ? expressSamples(raw) : []
}

/** Express 4 keeps only the compiled regexp of a `use()` layer: turn the common shapes back into a path. */
function express4Path(layer: Layer): string | undefined {
  if (layer.regexp.fast_slash) return '/'
  let k = 0
  const path = layer.regexp.source
    .replace(/^\^/, '')
    .replace(/\\\/\?\(\?=\\\/\|\$\)$/, '')
    .replace(
      /\(\?:\\\/\(\[\^\\?\/\]\+\?\)\)(\?)?/g,
      (_: string, optional?: string) => `/:${layer.keys[k++]?.name ?? k}${optional ?? ''}`,
    )
    .replace(/\\(.)/g, '$1')
  if (/[()[\]*+|^$]/.test(path.replace(/:[\w$]+\??/g, ''))) return undefined
  return path === '' ? '/' : path
}

function layerMount(layer: Layer): Mount {
  const v4 = isExpress4Layer(layer)
  const path = v4 ? express4Path(layer) : layer.rawPath === undefined ? undefined : rawDisplay(layer.rawPath)
  return {
    path: path ?? (v4 ? String(layer.regexp) : '<unknown mount path>'),
    samples: v4 ? (path === undefined ? [] : expressSamples(path)) : rawSamples(layer.rawPath),
    consume(rest) {
      const used = matchedPart(layer, rest)
      if (used === undefined) return undefined
      // Express only strips whole segments (Express 4 also accepts a '.' after the prefix).
      const next = rest[used.length]
      if (next !== undefined && next !== '/' && !(v4 && next === '.')) return undefined
      return used
    },
  }
}

/** `app.all(path)` registers the route once per method Node knows: one `*` entry, not 35 rows. */
function everyMethod(methods: Record<string, boolean>): boolean {
  return METHODS.every((m) => methods[m.toLowerCase()] === true)
}

function routeEndpoint(layer: Layer, mounts: Mount[]): ExpressRoute {
  const route = layer.route
  const methods = everyMethod(route.methods)
    ? ['*']
    : Object.keys(route.methods)
        .filter((m) => route.methods[m])
        .map((m) => (m === '_all' ? '*' : m.toUpperCase()))
  const handles = (method: string): boolean =>
    typeof route._handlesMethod === 'function' ? route._handlesMethod(method) : route._handles_method(method)
  const prefix = mounts.map((m) => m.path).reduce(joinPath, '/')
  const prefixSamples = mounts.reduce<string[]>(
    (acc, m) => acc.flatMap((a) => m.samples.map((s) => joinPath(a, s))),
    ['/'],
  )
  return {
    kind: 'route',
    mounts,
    path: prefix === '/' ? rawDisplay(route.path) : joinPath(prefix, rawDisplay(route.path)),
    methods,
    samples: [
      ...new Set(prefixSamples.flatMap((p) => rawSamples(route.path).flatMap((s) => neighbours(joinPath(p, s))))),
    ],
    serves(method, path) {
      const rest = throughMounts(mounts, path)
      return rest !== undefined && matchedPart(layer, rest) !== undefined && handles(method)
    },
  }
}

export function bridgeEndpoint(info: BridgeRouting, mounts: Mount[]): ExpressBridge {
  return {
    kind: 'bridge',
    mounts,
    path: mounts.map((m) => m.path).reduce(joinPath, '/'),
    info,
    appPath(path) {
      const rest = throughMounts(mounts, path)
      if (rest === undefined) return undefined
      return info.opts.keepMountPath ? path : rest
    },
    mountedLength(path) {
      let rest = path
      let used = 0
      for (const mount of mounts) {
        const part = mount.consume(rest) ?? ''
        used += part.length
        rest = rest.slice(part.length)
        if (!rest.startsWith('/')) rest = '/' + rest
      }
      return used
    },
  }
}

/** Routes and bridges in the order Express tries them. */
export function collectEndpoints(stack: Layer[], mounts: Mount[] = [], out: Endpoint[] = []): Endpoint[] {
  for (const layer of stack) {
    if (layer.route) {
      out.push(routeEndpoint(layer, mounts))
      continue
    }
    const handle = layer.handle
    const info = bridgeInfo(handle)
    const here = [...mounts, layerMount(layer)]
    if (info !== undefined) {
      out.push(bridgeEndpoint(info, here))
      // A bridge used as middleware with a fallback hands unmatched requests to it: its routes follow.
      const behind = stackOf(info.opts.fallback)
      if (behind) collectEndpoints(behind, here, out)
    } else {
      const inner = innerOf(layer)
      if (inner !== undefined) collectEndpoints(inner.stack, here, out)
    }
  }
  return out
}

/** A mount for a bridge that is not in the Express stack (front door, or an explicit prefix). */
export function prefixMount(prefix: string): Mount {
  const clean = prefix === '/' ? '' : prefix.replace(/\/+$/, '')
  return {
    path: clean === '' ? '/' : clean,
    samples: [clean === '' ? '/' : clean],
    consume(rest) {
      if (clean === '') return ''
      if (rest === clean || rest.startsWith(clean + '/')) return clean
      return undefined
    },
  }
}
