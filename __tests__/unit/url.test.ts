import fc from 'fast-check'
import { BadRequestError } from '../../src/core/errors'
import { requestOrigin, requestUrl, type ExpressLikeRequest } from '../../src/request/url'

// Oracle: the WHATWG URL parser (`new URL()`, `new Request().url`). The WHATWG urltestdata.json is not
// on this machine, so the table below is derived from its host-parsing rules instead.

function fakeReq(host: string | undefined, url = '/', https = false): ExpressLikeRequest {
  return { headers: host === undefined ? {} : { host }, url, socket: { encrypted: https } } as unknown as ExpressLikeRequest
}

/** The bridge's origin for a Host, or 'refused' when it throws a BadRequestError. */
function bridgeOrigin(host: string, https = false): string {
  try {
    return requestOrigin(fakeReq(host, '/', https))
  } catch (err) {
    if (err instanceof BadRequestError) return 'refused'
    throw err
  }
}

function urlOrigin(host: string, https = false): string {
  const scheme = https ? 'https' : 'http'
  try {
    return `${scheme}://${new URL(`${scheme}://${host}/`).host}`
  } catch {
    return 'refused'
  }
}

/** Hosts the URL parser accepts but the bridge refuses, by rule (a valid Host header carries none of them). */
function refusedByRule(host: string): boolean {
  return (
    // outside RFC 3986's reg-name / IP-literal characters: non-ASCII (IDNA), controls, space, tab (the
    // parser strips tab/LF), userinfo '@', a path start ('/', '?', '#', backslash), '"', '{', backtick…
    /[^A-Za-z0-9\-._~!$&'()*+,;=%:[\]]/.test(host) ||
    /:\d{6,}$/.test(host) || // a port with more than five digits (`:000080`)
    /^\[.*[^\]0-9a-fA-F:.].*\]/.test(host) // an IPv6 literal with a zone or other letters
  )
}

describe('requestOrigin against new URL()', () => {
  const table: Array<[host: string, https?: boolean]> = [
    ['example.com'],
    ['EXAMPLE.com'],
    ['example.com.'],
    ['a-b_c~d'],
    ["a!$&'()*+,;=b"],
    ['localhost:3000'],
    ['localhost:80'],
    ['localhost:443', true],
    ['localhost:80', true],
    ['localhost:'],
    ['localhost:080'],
    ['localhost:0'],
    ['localhost:65535'],
    ['localhost:65536'],
    ['localhost:99999'],
    ['localhost:1a'],
    ['localhost:-1'],
    ['localhost::80'],
    // IPv4 forms: decimal, octal, hex, fewer parts, overflow, trailing dot.
    ['127.0.0.1'],
    ['127.0.0.1:8080'],
    ['0177.0.0.1'],
    ['0x7f.0.0.1'],
    ['0x7F.1'],
    ['127.1'],
    ['2130706433'],
    ['4294967295'],
    ['4294967296'],
    ['256.0.0.1'],
    ['1.2.3.4.'],
    ['1.2.3.4.5'],
    ['1.2.3.09'],
    ['000.000.000.000'],
    ['010.0.0.1'],
    ['a.1'],
    ['a.1.'],
    ['a.0x1'],
    ['1.a'],
    ['example.123'],
    // IPv6: compression, embedded IPv4, uppercase, invalid forms.
    ['[::1]'],
    ['[::1]:8080'],
    ['[0:0:0:0:0:0:0:1]'],
    ['[2001:DB8::1]'],
    ['[2001:db8:0:0:1:0:0:1]'],
    ['[::ffff:192.168.0.1]'],
    ['[::ffff:c0a8:1]:443', true],
    ['[1:2:3:4:5:6:7:8:9]'],
    ['[::1::2]'],
    ['[::g]'],
    ['[]'],
    ['[::1'],
    ['::1'],
    ['[::1]x'],
    ['[fe80::1%25eth0]'],
    // Percent-encoding and forbidden host code points.
    ['ex%41mple.com'],
    ['%7F'],
    ['a%2Fb'],
    ['a%'],
    ['a%zz'],
    ['%30x7f.1'],
    ['a b'],
    ['a<b'],
    ['a>b'],
    ['a^b'],
    ['a|b'],
    ['a"b'],
    ['a`b'],
    ['a{b'],
    ['a@b'],
    ['a/b'],
    ['a\\b'],
    ['a?b'],
    ['a#b'],
    ['exämple.com'],
    [''],
    [':80'],
  ]

  it.each(table)('Host %j (https: %s)', (host, https = false) => {
    const bridge = bridgeOrigin(host, https)
    const oracle = urlOrigin(host, https)
    if (bridge === 'refused' && oracle !== 'refused' && refusedByRule(host)) return
    // An empty Host falls back to the socket address (see below), so only non-empty ones compare.
    if (host === '') return
    expect(bridge).toBe(oracle)
  })

  it('uses the socket address when Host is missing', () => {
    const req = { headers: {}, socket: { localAddress: '::1', localPort: 8080 } } as unknown as ExpressLikeRequest
    expect(requestOrigin(req)).toBe(urlOrigin('[::1]:8080'))
  })

  const hostChar = fc.constantFrom(...'aZ09.-_~!$&\'()*+,;=%:[]@/\\?# \t<>^|"xAfe257ä'.split(''))
  const host = fc.oneof(
    fc.string({ unit: hostChar, minLength: 1, maxLength: 12 }),
    // numeric-looking hosts exercise the IPv4 rules
    fc.tuple(fc.array(fc.oneof(fc.nat(300).map(String), fc.constantFrom('0x7f', '017', '00', '')), { minLength: 1, maxLength: 5 }), fc.option(fc.nat(70000))).map(
      ([parts, port]) => parts.join('.') + (port === null ? '' : `:${port}`),
    ),
    fc.ipV6().map((a) => `[${a}]`),
    fc.tuple(fc.domain(), fc.option(fc.nat(70000))).map(([d, port]) => d + (port === null ? '' : `:${port}`)),
  ).filter((h) => h !== '') // an empty Host means the socket address (tested above)

  it('for any Host: accepted ones equal the URL parser; refused ones are refused by the parser or by rule', () => {
    fc.assert(
      fc.property(host, fc.boolean(), (h, https) => {
        const bridge = bridgeOrigin(h, https)
        const oracle = urlOrigin(h, https)
        if (bridge !== 'refused') {
          expect(bridge).toBe(oracle)
          expect(new URL(bridge).origin).toBe(bridge)
        } else if (oracle !== 'refused') {
          expect(refusedByRule(h)).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })
})

/** The bridge's URL for a target, or 'refused' when it throws a BadRequestError. */
function bridgeUrl(target: string, origin = 'http://example.com'): string {
  try {
    return requestUrl(fakeReq('example.com', target), origin, false)
  } catch (err) {
    if (err instanceof BadRequestError) return 'refused'
    throw err
  }
}

/** What the URL parser makes of origin + target, without the fragment (a request URL has none). */
function parsed(target: string, origin = 'http://example.com'): URL {
  const url = new URL(origin + target)
  url.hash = ''
  return url
}

/**
 * A `.`/`..` segment (in any mix with `%2e`), which the WHATWG path parser removes. Checked by the
 * spec's rule as well as by `new URL()`: Node 20's parser leaves `/x/.a/..` as it is (the spec gives `/x/`).
 */
function hasDotSegment(path: string): boolean {
  return path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))
}

/** The path as sent (before `?` or `#`). */
function rawPath(target: string): string {
  return target.split(/[?#]/, 1)[0]
}

/**
 * An escape Hono's path decoding (decodeURI) resolves into a character no encoder escapes
 * (encodeURIComponent leaves it as it is): Hono reads `%61` as `a`, Express only matches `a` itself.
 */
function readApartByHono(path: string): boolean {
  return (path.match(/%[0-9a-f]{2}/gi) ?? []).some((e) => {
    const ch = String.fromCharCode(parseInt(e.slice(1), 16))
    return ch < '\x80' && decodeURI(e) === ch && encodeURIComponent(ch) === ch
  })
}

const targetChar = fc.constantFrom(
  ...'abZ09/./..%2e%2E%2f%5C?&=#\\ "<>`{}|^[]\'!$()*+,;:@~_-'.split(''),
  ...['%2e', '%2E', '%41', '%', '\t', '\x01', '\x7f', 'é', '/..', '/.', '%2e%2e'],
)
const target = fc.string({ unit: targetChar, maxLength: 16 }).map((s) => '/' + s)

describe('requestUrl against new URL() and new Request()', () => {
  const table = [
    '/',
    '/a/b?c=d',
    '/a//b',
    '//evil.com/x',
    '/%2F/%5C',
    '/a%20b',
    '/caf%C3%A9',
    '/café',
    '/a b',
    '/a"b',
    '/a<b>',
    '/a`b{c}',
    '/a|b^c',
    '/a[b]',
    "/a'b",
    "/p?x='y",
    '/p?x="y"',
    '/p?x=a b',
    '/p?x=<>',
    '/p?x=é',
    '/p?x=/../',
    '/p?',
    '/a^b?',
    '/a%7B?#f',
    '/p#frag',
    '/p?q#frag',
    '/a/./b',
    '/a/../b',
    '/a/%2e/b',
    '/a/%2E%2e/b',
    '/%61dmin',
    '/admi%6E/x',
    '/a%7E',
    '/a%2a%21%27%28%29',
    '/p?x=%61',
    '/a%25%61',
    '/a%22%3C%5B',
    '/a/.%2e',
    '/a/...',
    '/a/.b',
    '/a\\b',
    '/a\tb',
  ]

  function check(t: string): void {
    const url = bridgeUrl(t)
    if (url === 'refused') {
      // Refused only where the URL parser would have changed the path Express routed, or where Hono
      // would read it as another path than Express.
      const path = rawPath(t)
      expect(hasDotSegment(path) || parsed(t).pathname !== path || readApartByHono(path)).toBe(true)
      return
    }
    expect(readApartByHono(rawPath(t))).toBe(false)
    expect(new Request(url).url).toBe(url)
    expect(url).toBe(parsed(t).href)
  }

  it.each(table)('target %j', (t) => check(t))

  it('for any origin-form target: the URL the parser and a real Request give, or refused where the parser would change the path', () => {
    fc.assert(
      fc.property(target, (t) => check(t)),
      { numRuns: 300 },
    )
  })

  it('for any Host the bridge accepts and any target: request.url survives new Request()', () => {
    fc.assert(
      fc.property(fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6().map((a) => `[${a}]`)), target, (h, t) => {
        let origin: string
        try {
          origin = requestOrigin(fakeReq(h))
        } catch {
          return
        }
        const url = bridgeUrl(t, origin)
        if (url === 'refused') return
        expect(new Request(url).url).toBe(url)
        expect(url).toBe(parsed(t, 'http://' + new URL('http://' + h).host).href)
      }),
      { numRuns: 200 },
    )
  })

  it('an absolute-form target keeps the bridge origin and gives the path its origin-form would', () => {
    const authority = fc.string({ unit: fc.constantFrom(...'ab.:@9[]'.split('')), maxLength: 10 })
    fc.assert(
      fc.property(fc.constantFrom('http', 'https', 'ws'), authority, target, (scheme, auth, t) => {
        expect(bridgeUrl(`${scheme}://${auth}${t}`)).toBe(bridgeUrl(t))
      }),
      { numRuns: 200 },
    )
  })

  it('refuses targets that are neither origin-form nor absolute-form', () => {
    for (const t of ['*', 'example.com:443', 'http://a\\b/c', '://x']) expect(bridgeUrl(t)).toBe('refused')
  })
})
