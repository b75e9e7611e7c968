/**
 * What `npm run bench` compares. Each mode is one file in bench/servers/ (compiled to its own .mjs,
 * run in its own process), loading only what it names.
 *
 * Hooks for what other work adds:
 * - the Express-middleware export: add bench/servers/<id>.ts (mounted like bridge-express.ts) and a
 *   line in MODES; a RATIOS line judges it against express-floor-work / hono-express.
 * - WebSocket echo: wrk speaks no WebSocket, so it needs its own driver (e.g. bench/ws-echo.ts built
 *   on bench/server-process.ts and the same /proc CPU accounting in bench/wrk.ts); add it as a route
 *   with `driver: 'ws'` and let run.ts dispatch on it.
 */
export interface ModeInfo {
  id: string
  label: string
  group: 'middleware' | 'front door'
}

export const MODES: ModeInfo[] = [
  { id: 'express-floor', label: 'Express 5 floor (native route)', group: 'middleware' },
  { id: 'express-floor-work', label: 'Express 5 floor with the app\'s work', group: 'middleware' },
  { id: 'bridge-express', label: 'express-fetch-bridge in Express 5', group: 'middleware' },
  { id: 'hono-express', label: '@hono/node-server getRequestListener in Express 5', group: 'middleware' },
  { id: 'bridge-front-door', label: 'express-fetch-bridge front door (.listen)', group: 'front door' },
  { id: 'hono-serve', label: '@hono/node-server serve', group: 'front door' },
  { id: 'node-raw', label: 'raw node:http with the app\'s work', group: 'front door' },
]

export interface RouteInfo {
  path: string
  method: 'GET' | 'POST'
  name: string
  driver: 'wrk'
  /** Bytes of request body sent on every request (bench/bulk-client.ts): an upload route. */
  upload?: number
  /** Bytes of response body: a download route. */
  download?: number
}

const MiB = 1024 * 1024

export const ROUTES: RouteInfo[] = [
  { path: '/', method: 'GET', name: '/', driver: 'wrk' },
  { path: '/uint8array', method: 'GET', name: '/uint8array', driver: 'wrk' },
  { path: '/blob', method: 'GET', name: '/blob', driver: 'wrk' },
  { path: '/json', method: 'GET', name: '/json', driver: 'wrk' },
  { path: '/echo', method: 'POST', name: 'POST /echo', driver: 'wrk' },
  { path: '/stream', method: 'GET', name: '/stream', driver: 'wrk' },
  { path: '/mw', method: 'GET', name: '/mw', driver: 'wrk' },
  { path: '/etag', method: 'GET', name: '/etag', driver: 'wrk' },
  // Bulk bodies: uploads read whole (c.req.arrayBuffer()) or streamed (c.req.raw.body), downloads as
  // a stream and as one fixed body. The size is in the path so that each is its own route.
  { path: '/upload/1m', method: 'POST', name: 'POST /upload 1 MiB', driver: 'wrk', upload: MiB },
  { path: '/upload/8m', method: 'POST', name: 'POST /upload 8 MiB', driver: 'wrk', upload: 8 * MiB },
  { path: '/upload-stream/1m', method: 'POST', name: 'POST /upload 1 MiB streamed', driver: 'wrk', upload: MiB },
  { path: '/upload-stream/8m', method: 'POST', name: 'POST /upload 8 MiB streamed', driver: 'wrk', upload: 8 * MiB },
  { path: '/download/stream', method: 'GET', name: 'GET /download 64 MiB stream', driver: 'wrk', download: 64 * MiB },
  { path: '/download/fixed', method: 'GET', name: 'GET /download 16 MiB fixed', driver: 'wrk', download: 16 * MiB },
]

/** Bytes of body one request of this route moves (upload or download), 0 for the others. */
export function bodyBytes(route: RouteInfo): number {
  return route.upload ?? route.download ?? 0
}

/**
 * A bulk-body route is driven by count, not by time (bench/bulk-client.ts): one connection, the
 * requests that move this much body, so no transfer is cut off by the end of a run and the server's
 * CPU time covers whole requests only. Warm-up moves an eighth of it.
 */
export const BULK_BYTES_PER_RUN = 512 * MiB
/**
 * Downloads move four times as much: a server spends a third of an upload's CPU per GiB on them, and
 * the kernel counts CPU time in 10 ms ticks, so 512 MiB of download was 16 to 30 ticks (±4-6% a round).
 */
export const DOWNLOAD_BYTES_PER_RUN = 4 * BULK_BYTES_PER_RUN

/** Body bytes one timed run of a bulk-body route moves. */
export function bulkBytesPerRun(route: RouteInfo): number {
  return route.download === undefined ? BULK_BYTES_PER_RUN : DOWNLOAD_BYTES_PER_RUN
}

/** The requests of one timed run of a bulk-body route (whole requests of {@link bulkBytesPerRun}). */
export function bulkRequests(route: RouteInfo, warmup = false): number {
  const bytes = bulkBytesPerRun(route)
  return Math.max(1, Math.round((warmup ? bytes / 8 : bytes) / bodyBytes(route)))
}

/** The paired CPU ratios reported: reference µs/req ÷ bridge µs/req (≥ 1: the bridge is cheaper). */
export interface RatioInfo {
  mode: string
  reference: string
  label: string
  /** Issue #26's target, shown next to the figure. */
  target: number
  /** The routes the target applies to (default: all). */
  targetRoutes?: string[]
  /** Per-route targets that replace `target` (and apply whatever `targetRoutes` says). */
  routeTargets?: Record<string, number>
}

export const RATIOS: RatioInfo[] = [
  { mode: 'bridge-express', reference: 'express-floor-work', label: 'bridge ÷ Express floor with app work', target: 0.95, routeTargets: { '/mw': 0.8 } },
  { mode: 'bridge-express', reference: 'hono-express', label: 'bridge ÷ @hono/node-server in Express', target: 1.0, routeTargets: { '/mw': 1.5 } },
  { mode: 'bridge-front-door', reference: 'hono-serve', label: 'front door ÷ @hono/node-server serve', target: 1.0, routeTargets: { '/mw': 2.0, '/etag': 1.3 } },
  { mode: 'bridge-front-door', reference: 'node-raw', label: 'front door ÷ raw node:http', target: 0.92, targetRoutes: ['/', '/uint8array', '/json'], routeTargets: { '/mw': 0.7 } },
]
