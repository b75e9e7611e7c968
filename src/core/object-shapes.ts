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

const FIRST = Symbol('express-fetch-bridge/shape-1')
const SECOND = Symbol('express-fetch-bridge/shape-2')

/**
 * The rule, for both places Express's prototypes meet the bridge: on such a V8, `req` and `res` are
 * made dictionaries when Express has replaced their prototypes (middleware mode: the bridge sees them
 * after) or is about to (the front door handing them to an Express app: settled first, they stay
 * dictionaries through Express's `setPrototypeOf`). Nothing of it can be seen: symbols of the
 * bridge's are added and deleted, which turns the object into a dictionary; keys, their order and
 * values stay. Objects that cannot be extended are left as they are.
 *
 * Deleting the property added last is enough for an object whose prototype was replaced (its hidden
 * class has no way back). An object of a class has one, which Node 20's V8 takes: there the first of
 * two properties is deleted, which no V8 takes back.
 */
function settle(o: object, ofClass: boolean): void {
  if (!Object.isExtensible(o)) return
  const probe = o as Record<symbol, unknown>
  probe[FIRST] = 0
  if (ofClass) {
    probe[SECOND] = 0
    delete probe[FIRST]
    delete probe[SECOND]
  } else delete probe[FIRST]
}

/**
 * Whether `proto` was put in place of a class's prototype: one that is no class's prototype (it has no
 * `constructor` of its own, as Express's `app.request` and `app.response`). Objects of a class (node:http's,
 * a subclass's) share hidden classes as they should and are left alone.
 */
function replacedPrototype(proto: object | null): boolean {
  return proto !== null && !Object.hasOwn(proto, 'constructor')
}

// The last class prototypes met (a server's requests and responses share one each): known by one comparison.
let classOfReq: object | null = null
let classOfRes: object | null = null

/** Settles a request's two objects where their prototypes were replaced (see {@link settle}). */
export function settleShapes(req: object, res: object): void {
  const reqProto = Object.getPrototypeOf(req) as object | null
  if (reqProto !== classOfReq) {
    if (replacedPrototype(reqProto)) settle(req, false)
    else classOfReq = reqProto
  }
  const resProto = Object.getPrototypeOf(res) as object | null
  if (resProto !== classOfRes) {
    if (replacedPrototype(resProto)) settle(res, false)
    else classOfRes = resProto
  }
}

/** Settles a request's two objects before they are handed to an Express app, which replaces both prototypes. */
export function settleBeforeExpress(req: object, res: object): void {
  settle(req, true)
  settle(res, true)
}
