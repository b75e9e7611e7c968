/** The server modes the benchmark compares. Each runs in its own process (bench/server.ts). */
export interface ModeInfo {
  id: string
  label: string
  /** Fetch modes serve bench/app.ts's Hono app; the others answer the same routes by hand. */
  fetch: boolean
  /** Modes not implemented yet stay listed (so the table has a place for them) but are skipped. */
  available: boolean
  /** A mode this one is judged against (besides the floor and @hono/node-server in Express). */
  compareTo?: string
}

export const FLOOR = 'express5-floor'
export const HONO_IN_EXPRESS = 'hono-node-server-express5'

export const MODES: ModeInfo[] = [
  { id: 'node-raw', label: 'node:http raw (ceiling)', fetch: false, available: true },
  { id: FLOOR, label: 'Express 5 floor (writeHead + end)', fetch: false, available: true },
  { id: 'express5-native', label: 'Express 5 native (res.send / res.json)', fetch: false, available: true },
  { id: 'bridge-express5', label: 'express-fetch-bridge in Express 5', fetch: true, available: true },
  { id: 'bridge-express4', label: 'express-fetch-bridge in Express 4', fetch: true, available: true },
  // Front-door mode, `http.createServer(fetchBridge(hono, { fallback: expressApp }))`: Hono routes are
  // served without entering Express (judged against @hono/node-server's own server), and requests
  // no Hono route matches reach the Express app (judged against that Express app alone).
  {
    id: 'bridge-front-door',
    label: 'express-fetch-bridge front door, Hono routes',
    fetch: true,
    available: true,
    compareTo: 'hono-node-server-serve',
  },
  {
    id: 'bridge-front-door-fallback',
    label: 'express-fetch-bridge front door, falling back to Express',
    fetch: false,
    available: true,
    compareTo: 'express5-native',
  },
  // Only with BENCH_BASELINE_SRC=path/to/another/src/index.ts: that copy of the bridge in Express 5,
  // to measure a change before/after in the same interleaved rounds.
  {
    id: 'bridge-express5-baseline',
    label: 'express-fetch-bridge in Express 5 (baseline copy)',
    fetch: true,
    available: Boolean(process.env.BENCH_BASELINE_SRC),
  },
  { id: HONO_IN_EXPRESS, label: '@hono/node-server in Express 5', fetch: true, available: true },
  { id: 'whatwg-node-express5', label: '@whatwg-node/server in Express 5', fetch: true, available: true },
  { id: 'remix-express5', label: '@remix-run/node-fetch-server in Express 5', fetch: true, available: true },
  { id: 'hono-node-server-serve', label: '@hono/node-server serve (no Express)', fetch: true, available: true },
]

export interface RouteInfo {
  path: string
  method: 'GET' | 'POST'
  /** Label used in tables. */
  name: string
}

export const ROUTES: RouteInfo[] = [
  { path: '/', method: 'GET', name: 'GET /' },
  { path: '/uint8array', method: 'GET', name: 'GET /uint8array' },
  { path: '/blob', method: 'GET', name: 'GET /blob' },
  { path: '/json', method: 'GET', name: 'GET /json' },
  { path: '/echo', method: 'POST', name: 'POST /echo' },
  { path: '/stream', method: 'GET', name: 'GET /stream' },
]
