/** Mistakes the migration report points out in a Hono route, beside its status. */
import type { ExpressBridge } from './migration-express.js'
import { joinPath } from './migration-samples.js'

/**
 * A Hono route that starts with the path its bridge is mounted at, under `mountPath: 'strip'`
 * (`app.use('/api', bridge)` + `hono.get('/api/users')`): the app never sees `/api`, so the route is
 * only reachable at `/api/api/users`.
 */
export function mountPrefixWarnings(routePath: string, bridges: ExpressBridge[]): string[] {
  const out: string[] = []
  for (const bridge of bridges) {
    const prefix = bridge.path.replace(/\/+$/, '')
    if (bridge.info.opts.keepMountPath || prefix === '' || /[:*(?{]/.test(prefix)) continue
    const path = routePath.toLowerCase()
    const lower = prefix.toLowerCase()
    if (path === lower || path.startsWith(lower + '/')) {
      out.push(`repeats the mount path ${prefix}: reachable at ${joinPath(prefix, routePath)}`)
    }
  }
  return out
}
