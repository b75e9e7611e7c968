// Imported before the sources: wraps the global Request and AbortController so tests can count how
// often the bridge builds real ones (the bridge captures these globals when it loads).
export const counts = { Request: 0, AbortController: 0 }

function counting<T extends new (...args: any[]) => any>(Base: T, key: keyof typeof counts): T {
  return new Proxy(Base, {
    construct(target, args, newTarget) {
      counts[key]++
      return Reflect.construct(target, args, newTarget)
    },
  })
}

globalThis.Request = counting(globalThis.Request, 'Request')
globalThis.AbortController = counting(globalThis.AbortController, 'AbortController')
