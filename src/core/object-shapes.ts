/**
 * Express gives each request's `req` and `res` another prototype (`Object.setPrototypeOf(req,
 * app.request)`). On V8 before 13 (Node 20 and 22) every property added to such an object afterwards
 * gets a hidden class of its own, shared with no other object, so no inline cache ever meets it twice:
 * each later property access on req and res (Express's, Node's, the bridge's, the app's) runs V8's
 * runtime lookup, and a request in Express costs about four times what it costs on Node 24. An object
 * in dictionary mode has its properties found by the inline caches' own hash lookup instead. V8 13
 * shares those hidden classes again; there the change would only slow lookups down.
 */

const V8_MAJOR = Number.parseInt(String(process.versions?.v8), 10)
/** Whether this V8 gives objects with a replaced prototype hidden classes of their own. */
export const PER_OBJECT_SHAPES = V8_MAJOR > 0 && V8_MAJOR < 13

const PROBE = Symbol('express-fetch-bridge/shape')

/**
 * Puts `o` in dictionary mode if its prototype was replaced (one that is no class's prototype: it has
 * no `constructor` of its own, as Express's `app.request` and `app.response`) and this V8 needs it.
 * Nothing of it can be seen: one symbol of the bridge's is added and deleted (deleting the latest
 * property of such an object is what turns it into a dictionary); keys and their order stay.
 */
export function settleShape(o: object): void {
  const proto = Object.getPrototypeOf(o) as object | null
  // A class's own prototype (node:http's, a subclass's): such objects share hidden classes as they should.
  if (proto === null || Object.hasOwn(proto, 'constructor') || !Object.isExtensible(o)) return
  ;(o as Record<symbol, unknown>)[PROBE] = 0
  delete (o as Record<symbol, unknown>)[PROBE]
}

/** {@link settleShape} for a request's two objects. */
export function settleShapes(req: object, res: object): void {
  settleShape(req)
  settleShape(res)
}
