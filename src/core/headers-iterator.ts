/**
 * The iterator of the bridge's Headers, as the platform's (a WebIDL pair iterator): each `next()` reads
 * the sorted list at the iterator's index as it is then, so it sees changes made since, even after it
 * ended or a loop left it early (it has no `return`); `[object Headers Iterator]`, the platform's error
 * for a `next()` on anything else.
 */

type Pairs = () => ReadonlyArray<readonly [string, string]>

/** What each step gives: the pair (a new array: the caller may change it), the name or the value. */
export const ENTRIES = 0
export const KEYS = 1
export const VALUES = 2

class HeadersIterator {
  #pairs: Pairs
  #kind: number
  #index = 0

  constructor(pairs: Pairs, kind: number) {
    this.#pairs = pairs
    this.#kind = kind
  }

  next(): IteratorResult<unknown> {
    if (!(#pairs in this)) {
      throw new TypeError("'next' called on an object that does not implement interface Headers Iterator.")
    }
    const list = this.#pairs()
    const i = this.#index
    if (i >= list.length) return { value: undefined, done: true }
    this.#index = i + 1
    const [name, value] = list[i]
    return { value: this.#kind === KEYS ? name : this.#kind === VALUES ? value : [name, value], done: false }
  }
}

// As the platform's: %IteratorPrototype% behind it (so `[Symbol.iterator]()` returns the iterator
// itself), `next` its one own enumerable member.
Object.setPrototypeOf(HeadersIterator.prototype, Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())))
Object.defineProperty(HeadersIterator.prototype, 'next', { enumerable: true })
Object.defineProperty(HeadersIterator.prototype, Symbol.toStringTag, { value: 'Headers Iterator', configurable: true })
delete (HeadersIterator.prototype as { constructor?: unknown }).constructor

export function headersIterator<T>(pairs: Pairs, kind: number): IterableIterator<T> {
  return new HeadersIterator(pairs, kind) as unknown as IterableIterator<T>
}
