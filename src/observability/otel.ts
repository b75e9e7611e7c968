/**
 * The OpenTelemetry API the application registered, reached without depending on it. The API keeps
 * its globals (the context manager among them) on `globalThis` under a registered symbol per major
 * version, and its context keys are registered symbols too (`createContextKey(description)` is
 * `Symbol.for(description)`): any copy of `@opentelemetry/api` 1.x the application loaded is found,
 * and without one every function here is a single property read that finds nothing.
 */

const API_1 = Symbol.for('opentelemetry.js.api.1')
/** `@opentelemetry/core`'s RPC metadata: what `instrumentation-http` names the server span and sets `http.route` from. */
const RPC_METADATA = Symbol.for('OpenTelemetry SDK Context Key RPC_METADATA')
/** The active span of a context (`trace.getSpan(context)`). */
const SPAN = Symbol.for('OpenTelemetry Context Key SPAN')

interface Context {
  getValue(key: symbol): unknown
}

/** The object `instrumentation-http` puts in the request's context; `route` is read when the response finishes. */
export interface RpcMetadata {
  type: string
  route?: string | undefined
}

interface Span {
  recordException(exception: unknown): void
  setStatus(status: { code: number; message?: string | undefined }): void
}

/** `SpanStatusCode.ERROR`. */
const ERROR = 2

function activeContext(): Context | undefined {
  const api = (globalThis as { [API_1]?: { context?: { active?(): Context } } })[API_1]
  if (api === undefined) return undefined
  try {
    return api.context?.active?.()
  } catch {
    return undefined
  }
}

/** The current request's HTTP server metadata, when `instrumentation-http` (or anything using its key) traces it. */
export function httpRpcMetadata(): RpcMetadata | undefined {
  const metadata = activeContext()?.getValue(RPC_METADATA) as RpcMetadata | undefined
  return metadata !== undefined && metadata !== null && metadata.type === 'http' ? metadata : undefined
}

/**
 * An error the app answered itself (Hono's `onError`) recorded on the active span as the Express
 * instrumentation records one passed to `next(err)`: an exception event and an error status.
 */
export function recordHandledError(err: unknown): void {
  const span = activeContext()?.getValue(SPAN) as Span | undefined
  if (span === undefined || span === null || typeof span.recordException !== 'function') return
  try {
    if (err instanceof Error) {
      span.recordException(err)
      span.setStatus({ code: ERROR, message: err.message })
    } else {
      span.recordException(String(err))
      span.setStatus({ code: ERROR, message: String(err) })
    }
  } catch {
    // A tracer's failure is never the request's.
  }
}
