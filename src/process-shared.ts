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

/** Replace a global the way the platform defines its own: writable, configurable, not enumerable. */
export function defineGlobal(name: 'Response' | 'Request' | 'fetch', value: unknown): void {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false })
}
