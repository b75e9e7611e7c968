import { processShared } from './process-shared.js'

/**
 * The platform's `Request`, `Response` and `Headers`, captured once per process, before the bridge replaces the
 * globals: every copy of the package (ESM and CJS) and every module uses these, so "the platform's
 * class" means one thing everywhere.
 */
export const PlatformRequest: typeof Request = processShared('platform-request@1', globalThis.Request)
export const PlatformResponse: typeof Response = processShared('platform-response@1', globalThis.Response)
export const PlatformHeaders: typeof Headers = processShared('platform-headers@1', globalThis.Headers)
