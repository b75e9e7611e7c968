/**
 * The lazy Request and the lightweight Response implement the members the fast path needs; every
 * other member of the platform class (including ones a later Node adds) is defined here to build the
 * real object once and forward to it.
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
}
