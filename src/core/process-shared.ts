const registry = globalThis as { [key: symbol]: unknown }
const symbolFor = (key: string): symbol => Symbol.for(`express-fetch-bridge/${key}`)

/**
 * One value per process for `key`, shared by every copy of this package that is loaded (the ESM and
 * the CJS build can both be): the first copy's value wins, so `instanceof` and identity checks hold
 * across copies. Every exported class must be shared (response.ts shares LightResponse's whole module
 * state the same way). Bump the key's `@n` when the value changes incompatibly, so an older copy's
 * value is not taken for the new one.
 */
export function processShared<T>(key: string, value: T): T {
  return (registry[symbolFor(key)] ??= value) as T
}

/** The value a copy loaded earlier registered for `key`, if any. */
export function registeredShared<T>(key: string): T | undefined {
  return registry[symbolFor(key)] as T | undefined
}

/**
 * Key of the Hono env the bridge builds: whoever sees it knows the bridge's serializer writes the
 * response (and merges what middleware set on `res`). A symbol, so it is the same in every copy.
 */
export const BRIDGE_ENV: unique symbol = Symbol.for('express-fetch-bridge/bridge-env') as never

/** Method of the lazy Request returning its real Request; shared by every copy of the module (ESM/CJS). */
export const REAL_REQUEST: unique symbol = Symbol.for('express-fetch-bridge/real-request') as never

/** Property of a bridge handler holding its record (bridge-info.ts): a CLI on the ESM build reads a CJS server's. */
export const BRIDGE_INFO: unique symbol = Symbol.for('express-fetch-bridge/bridge-info') as never

/** Mark of a `next` that leads nowhere (a bare node:http server's): nested bridges of any copy see it. */
export const NOBODY_BEHIND: unique symbol = Symbol.for('express-fetch-bridge/nobody-behind') as never

/** Set on a request while it is inside the Hono app of a front door (bridge/front-door-session.ts). */
export const IN_FRONT_DOOR: unique symbol = Symbol.for('express-fetch-bridge/in-front-door') as never

/** Mark of the bridge's own `session` accessor on node:http's request prototype (front-door-session.ts). */
export const SESSION_GUARD: unique symbol = Symbol.for('express-fetch-bridge/session-guard') as never

/** Method of a shadow trial (the `shadow` option) that wraps a bridge: a trial of one copy serves a bridge of another. */
export const SHADOW_WRAP: unique symbol = Symbol.for('express-fetch-bridge/shadow-wrap') as never

/** Mark of the Request class and fetch the bridge installed as globals, whichever copy installed them. */
export const GLOBAL_INSTALLED: unique symbol = Symbol.for('express-fetch-bridge/request-global') as never

/** Replace a global the way the platform defines its own: writable, configurable, not enumerable. */
export function defineGlobal(name: 'Response' | 'Request' | 'Headers' | 'fetch', value: unknown): void {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false })
}
