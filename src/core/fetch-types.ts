/**
 * Fetch types that only the DOM lib declares as global names, derived from the `Headers` and
 * `Response` globals that @types/node declares too: the shipped declarations then type-check in a
 * Node-only project (`"lib": ["ES2022"]`, `"types": ["node"]`) and agree with the DOM lib where
 * it is loaded.
 */
export type HeadersInit = NonNullable<ConstructorParameters<typeof Headers>[0]>
export type BodyInit = NonNullable<ConstructorParameters<typeof Response>[0]>
export type ResponseType = Response['type']
/** A WebSocket's binaryType (the DOM lib's `BinaryType`). */
export type BinaryType = 'arraybuffer' | 'blob'
export type RequestInfo = ConstructorParameters<typeof Request>[0]
