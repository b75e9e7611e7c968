/**
 * A class standing in for a platform class has the platform's member shape: WebIDL makes every
 * operation, attribute and static operation enumerable, so `for…in` over a platform Headers or Response
 * (or the Response class) lists them (Hono's `c.body(…, new Headers())` misuse fails on that), and over
 * ours it must list the same.
 */
export function matchEnumerability(target: { prototype: object }, platform: { prototype: object }): void {
  mirror(target.prototype, platform.prototype)
  mirror(target, platform)
}

/** `ours`' members that `theirs` also has, redefined in its order (so `for…in` lists them in its order). */
function mirror(ours: object, theirs: object): void {
  for (const key of Object.getOwnPropertyNames(theirs)) {
    const own = Object.getOwnPropertyDescriptor(ours, key)
    // constructor, prototype, name and length are not members (and prototype cannot be redefined).
    if (own === undefined || !own.configurable || key === 'constructor' || key === 'name' || key === 'length') continue
    const enumerable = Object.getOwnPropertyDescriptor(theirs, key)!.enumerable === true
    delete (ours as Record<string, unknown>)[key]
    Object.defineProperty(ours, key, { ...own, enumerable })
  }
}

/**
 * The lazy Request and the lightweight Response implement the members the fast path needs; every
 * other member of the platform class (including ones a later Node adds) is defined here to build the
 * real object once and forward to it. All members then take the platform's enumerability.
 */
export function delegateRemaining<T extends object>(
  target: { prototype: T },
  platform: { prototype: object },
  realOf: (self: T) => object,
): void {
  for (const key of Object.getOwnPropertyNames(platform.prototype)) {
    if (key === 'constructor' || Object.prototype.hasOwnProperty.call(target.prototype, key)) continue
    const desc = Object.getOwnPropertyDescriptor(platform.prototype, key)!
    if (typeof desc.value === 'function') {
      Object.defineProperty(target.prototype, key, {
        configurable: true,
        writable: true,
        value(this: T, ...args: unknown[]) {
          return (realOf(this) as any)[key](...args)
        },
      })
    } else if (desc.get) {
      Object.defineProperty(target.prototype, key, {
        configurable: true,
        get(this: T) {
          return (realOf(this) as any)[key]
        },
      })
    }
  }
  matchEnumerability(target, platform)
}
