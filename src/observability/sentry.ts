/**
 * Sentry's request naming, reached without depending on it: `@sentry/node` keeps its state in a global
 * carrier (`globalThis.__SENTRY__[version]`, its async context strategy as `acs`), shared by every copy
 * of the SDK. Its error events take the request's transaction name from the isolation scope; its
 * transaction is the root span. Without Sentry this is one property read.
 */

interface SentryScope {
  setTransactionName(name?: string): void
}
interface SentrySpan {
  updateName(name: string): void
  setAttribute(key: string, value: string): void
  _sentryRootSpan?: SentrySpan
}
interface SentryState {
  defaultIsolationScope?: SentryScope
  acs?: {
    getIsolationScope?(): SentryScope
    getCurrentScope?(): { refs?: { span?: SentrySpan | { deref(): SentrySpan | undefined } } }
    getActiveSpan?(): SentrySpan | undefined
  }
}

/** Sentry's getActiveSpan(): the strategy's, else the span the current scope holds (a WeakRef where there are). */
function activeSpan(acs: NonNullable<SentryState['acs']>): SentrySpan | undefined {
  if (typeof acs.getActiveSpan === 'function') return acs.getActiveSpan()
  const held = acs.getCurrentScope?.()?.refs?.span
  return held !== undefined && typeof (held as { deref?: unknown }).deref === 'function'
    ? (held as { deref(): SentrySpan | undefined }).deref()
    : (held as SentrySpan | undefined)
}

/** Whether a Sentry SDK is loaded in the process. */
export function sentryLoaded(): boolean {
  return (globalThis as { __SENTRY__?: unknown }).__SENTRY__ !== undefined
}

/** Name the current request `METHOD route` in Sentry, as its Express integration names a route. */
export function nameSentryRequest(method: string, route: string): void {
  const carrier = (globalThis as { __SENTRY__?: { version?: string } & Record<string, SentryState> }).__SENTRY__
  if (carrier === undefined) return
  try {
    const sentry = carrier[carrier.version ?? '']
    const scope = sentry?.acs?.getIsolationScope?.()
    // Outside a request Sentry tracks, the default scope would name every later event.
    if (scope === undefined || scope === sentry.defaultIsolationScope) return
    const name = `${method} ${route}`
    scope.setTransactionName(name)
    const span = activeSpan(sentry.acs!)
    const root = span?._sentryRootSpan ?? span
    if (root === undefined) return
    root.updateName(name)
    // What Sentry's own updateSpanName() sets, and reads back when the span ends.
    root.setAttribute('sentry.custom_span_name', name)
    root.setAttribute('http.route', route)
    root.setAttribute('sentry.segment.name.source', 'route')
  } catch {
    // An SDK of another shape: leave its naming alone.
  }
}
