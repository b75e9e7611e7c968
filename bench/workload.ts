/** The bytes every mode serves, shared by the Hono app, the native floors and the checks. */

/** One 1 KiB chunk of the /stream body. */
export const CHUNK = Buffer.alloc(1024, 'x')
export const STREAM_CHUNKS = 16
export const JSON_BODY = { hello: 'world', n: 42, list: [1, 2, 3] }
/** What wrk (bench/post.lua) and the correctness check POST to /echo. */
export const ECHO_BODY = '{"hello":"world","n":[1,2,3],"nested":{"ok":true}}'

/** What hono/cors() + hono/secure-headers() add to /mw (defaults, request without Origin). */
export const MW_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
}

/** The bulk-body routes (uploads and downloads): sizes, and the bytes every mode serves. */
export const MiB = 1024 * 1024
/** One 64 KiB chunk of the streamed download (written 1,024 times: 64 MiB). */
export const DOWNLOAD_CHUNK = Buffer.alloc(64 * 1024, 'd')
export const DOWNLOAD_STREAM_BYTES = 64 * MiB
/** The fixed download body (16 MiB, built once). */
export const DOWNLOAD_FIXED = new Uint8Array(16 * MiB).fill(0x66)
