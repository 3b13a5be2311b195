// The SSRF guard: resolves a host and refuses private, loopback, link-local and metadata targets.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { AppError } from '../errors.ts'

/** Every address a host name resolves to (node:dns lookup with `all`); tests inject their own. */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>

/** The address a request connects to, after every resolved address passed the guard. */
export type CheckedTarget = { host: string; address: string; family: 4 | 6 }

export type AddressGuard = {
  /**
   * Resolves `host` (a URL hostname, IPv6 in brackets or not) and returns the address to use.
   * `port` is the one the request connects to: an allow-list entry with a port opens that port
   * only (without `port`, such an entry never matches).
   */
  check(host: string, signal?: AbortSignal, port?: number): Promise<CheckedTarget>
}

type Cidr = { bytes: number[]; prefix: number; reason: string }

const cidr = (text: string, reason: string): Cidr => {
  const [ip, prefix] = text.split('/') as [string, string]
  return { bytes: ipBytes(ip)!, prefix: Number(prefix), reason }
}

// IANA special-purpose ranges a server-side fetch must never reach on a caller's say-so.
const BLOCKED_V4: Cidr[] = [
  cidr('0.0.0.0/8', 'unspecified'),
  cidr('10.0.0.0/8', 'private'),
  cidr('100.64.0.0/10', 'carrier-grade NAT'),
  cidr('127.0.0.0/8', 'loopback'),
  cidr('169.254.0.0/16', 'link-local'),
  cidr('172.16.0.0/12', 'private'),
  cidr('192.0.0.0/24', 'reserved'),
  cidr('192.0.2.0/24', 'documentation'),
  cidr('192.168.0.0/16', 'private'),
  cidr('198.18.0.0/15', 'benchmarking'),
  cidr('198.51.100.0/24', 'documentation'),
  cidr('203.0.113.0/24', 'documentation'),
  cidr('224.0.0.0/4', 'multicast'),
  cidr('240.0.0.0/4', 'reserved'),
]

const BLOCKED_V6: Cidr[] = [
  cidr('::/128', 'unspecified'),
  cidr('::1/128', 'loopback'),
  cidr('100::/64', 'discard'),
  cidr('2001:db8::/32', 'documentation'),
  cidr('fc00::/7', 'unique-local'),
  cidr('fe80::/10', 'link-local'),
  cidr('fec0::/10', 'site-local'),
  cidr('ff00::/8', 'multicast'),
]

// IPv6 forms that carry an IPv4 address: the embedded one is what the packet reaches.
const EMBEDS_V4: { range: Cidr; at: number }[] = [
  { range: cidr('::ffff:0:0/96', 'IPv4-mapped'), at: 12 },
  { range: cidr('::/96', 'IPv4-compatible'), at: 12 },
  { range: cidr('64:ff9b::/96', 'NAT64'), at: 12 },
  { range: cidr('2002::/16', '6to4'), at: 2 },
]

const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2:0:0:0:0:0:254'])
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata'])

function parseV4(text: string): number[] | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : 256))
  return bytes.every((b) => b <= 255) ? bytes : null
}

function parseV6(text: string): number[] | null {
  let rest = text.split('%')[0]!
  const lastColon = rest.lastIndexOf(':')
  const dotted = rest.slice(lastColon + 1)
  if (dotted.includes('.')) {
    // A trailing dotted quad (::ffff:1.2.3.4) is two groups written in IPv4 notation.
    const v4 = parseV4(dotted)
    if (!v4) return null
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16)
    rest = `${rest.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`
  }
  const halves = rest.split('::')
  if (halves.length > 2) return null
  const group = (s: string) => (s === '' ? [] : s.split(':'))
  const head = group(halves[0]!)
  const back = halves.length === 2 ? group(halves[1]!) : []
  const known = head.length + back.length
  if (halves.length === 1 ? known !== 8 : known > 7) return null
  const groups = [...head, ...Array<string>(8 - known).fill('0'), ...back].map((g) =>
    /^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : -1,
  )
  if (groups.some((g) => g < 0)) return null
  return groups.flatMap((g) => [g >> 8, g & 0xff])
}

/** 4 or 16 bytes of an IP literal, or null when `text` is not one. Brackets are allowed. */
export function ipBytes(text: string): number[] | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  if (bare.includes(':')) return parseV6(bare)
  return parseV4(bare)
}

function inRange(bytes: number[], range: Cidr): boolean {
  if (bytes.length !== range.bytes.length) return false
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const mask = range.prefix - bit >= 8 ? 0xff : (0xff << (8 - (range.prefix - bit))) & 0xff
    if ((bytes[bit / 8]! & mask) !== (range.bytes[bit / 8]! & mask)) return false
  }
  return true
}

function formatBytes(bytes: number[]): string {
  if (bytes.length === 4) return bytes.join('.')
  const groups: string[] = []
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16))
  return groups.join(':')
}

/** Why an address may not be fetched (`'loopback'`, `'cloud metadata'`...), or null when public. */
export function blockedReason(address: string): string | null {
  const bytes = ipBytes(address)
  if (!bytes) return 'not an IP address'
  if (METADATA_ADDRESSES.has(formatBytes(bytes))) return 'cloud metadata'
  if (bytes.length === 4) return BLOCKED_V4.find((r) => inRange(bytes, r))?.reason ?? null
  for (const { range, at } of EMBEDS_V4) {
    // :: and ::1 sit in the IPv4-compatible range but are IPv6's own unspecified and loopback.
    const ownV6 = bytes.slice(0, 15).every((b) => b === 0) && bytes[15]! <= 1
    if (range.reason === 'IPv4-compatible' && ownV6) continue
    if (inRange(bytes, range)) {
      const inner = blockedReason(bytes.slice(at, at + 4).join('.'))
      if (inner) return `${range.reason} ${inner}`
    }
  }
  return BLOCKED_V6.find((r) => inRange(bytes, r))?.reason ?? null
}

function normalHost(host: string): string {
  const lower = host.toLowerCase().replace(/\.$/, '')
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower
}

/** `true` when `host` matches `pattern`: an exact name or `*.domain` (subdomains only). */
export function hostMatches(pattern: string, host: string): boolean {
  const p = normalHost(pattern)
  const h = normalHost(host)
  if (p.startsWith('*.')) return h.endsWith(p.slice(1)) && h.length > p.length - 1
  return p === h
}

/** An allow-list entry: a host pattern or an address range, and the one port it opens (or all). */
export type AllowEntry =
  { kind: 'host'; pattern: string; port?: number } | { kind: 'range'; range: Cidr; port?: number }

/**
 * One `fetchAllowPrivate` entry: `nas.lan`, `*.lan`, `192.168.1.20`, `10.0.0.0/8`, `::1`, each
 * optionally with a port (`127.0.0.1:8080`, `nas.lan:8080`, `[::1]:8080`, `10.0.0.0/8:8080`);
 * or why it is not one. A bare IPv6 address has no port: bracket it to give one.
 */
export function parseAllowEntry(
  raw: string,
): { ok: true; entry: AllowEntry } | { ok: false; reason: string } {
  const text = raw.trim()
  let target = text
  let portText: string | undefined
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(text)
  if (bracketed) [, target = '', portText] = bracketed
  else if (text.indexOf(':') > 0 && text.indexOf(':') === text.lastIndexOf(':'))
    [target, portText] = [text.slice(0, text.indexOf(':')), text.slice(text.indexOf(':') + 1)]
  let port: number | undefined
  if (portText !== undefined) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN
    if (!(port >= 1 && port <= 65535))
      return { ok: false, reason: `${text}: the port must be a number from 1 to 65535` }
  }
  const at = port === undefined ? {} : { port }
  const [ip, prefix] = target.split('/') as [string, string | undefined]
  const bytes = ipBytes(ip)
  if (!bytes) {
    if (!target || target.includes('/') || target.includes('['))
      return { ok: false, reason: `${text}: not a host name, IP address or CIDR range` }
    return { ok: true, entry: { kind: 'host', pattern: target, ...at } }
  }
  const bits = prefix === undefined ? bytes.length * 8 : Number(prefix)
  if (!/^\d{1,3}$/.test(prefix ?? '0') || bits > bytes.length * 8)
    return { ok: false, reason: `${text}: the range's prefix must be 0 to ${bytes.length * 8}` }
  return {
    ok: true,
    entry: { kind: 'range', range: { bytes, prefix: bits, reason: 'allowed' }, ...at },
  }
}

type AllowList = {
  hosts: Extract<AllowEntry, { kind: 'host' }>[]
  ranges: Extract<AllowEntry, { kind: 'range' }>[]
}

/** Bad entries are refused at start (config.ts); any left here are skipped. */
function parseAllowList(entries: readonly string[]): AllowList {
  const list: AllowList = { hosts: [], ranges: [] }
  for (const raw of entries) {
    if (!raw.trim()) continue
    const parsed = parseAllowEntry(raw)
    if (!parsed.ok) continue
    if (parsed.entry.kind === 'host') list.hosts.push(parsed.entry)
    else list.ranges.push(parsed.entry)
  }
  return list
}

/** An entry without a port opens every port; one with a port, that port only. */
const portOpens = (entry: { port?: number }, port: number | undefined) =>
  entry.port === undefined || entry.port === port

/** An IPv4-mapped IPv6 address is its IPv4 address, for allow-list ranges written in IPv4. */
function comparable(bytes: number[]): number[] {
  const mapped = EMBEDS_V4[0]!.range
  return bytes.length === 16 && inRange(bytes, mapped) ? bytes.slice(12) : bytes
}

const refuse = (message: string, host: string): AppError =>
  new AppError('forbidden', message, { reason: 'private_address', host })

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true })

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work
  signal.throwIfAborted()
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * The guard for outbound requests. `allowPrivate` (config `fetchAllowPrivate`) lists host names
 * (exact or `*.domain`), IPs and CIDRs that may be reached although private: a listed name lets
 * its every address through, a listed IP or CIDR lets those addresses through for any name; an
 * entry with a port (`127.0.0.1:8080`) only for requests to that port.
 */
export function createAddressGuard(opts: {
  allowPrivate: readonly string[]
  resolve?: Resolver
}): AddressGuard {
  const allow = parseAllowList(opts.allowPrivate)
  const resolve = opts.resolve ?? systemResolver
  return {
    async check(rawHost, signal, port) {
      const host = normalHost(rawHost)
      const hostAllowed = allow.hosts.some(
        (entry) => hostMatches(entry.pattern, host) && portOpens(entry, port),
      )
      if (!hostAllowed) {
        if (METADATA_HOSTS.has(host)) throw refuse(`fetch refused: ${host} is cloud metadata`, host)
        if (host === 'localhost' || host.endsWith('.localhost'))
          throw refuse(`fetch refused: ${host} is loopback`, host)
      }
      const literal = isIP(host)
      const found = literal
        ? [{ address: host, family: literal }]
        : await abortable(resolve(host), signal).catch((cause: unknown) => {
            if (signal?.aborted) throw cause
            throw new AppError(
              'bad_request',
              `fetch failed: cannot resolve ${host}`,
              { reason: 'dns', host },
              { cause },
            )
          })
      if (found.length === 0)
        throw new AppError('bad_request', `fetch failed: cannot resolve ${host}`, {
          reason: 'dns',
          host,
        })
      // Every address is checked: a name with one public and one private address is refused,
      // so which one the connection would pick cannot matter.
      for (const { address } of found) {
        const reason = blockedReason(address)
        if (!reason || hostAllowed) continue
        const bytes = comparable(ipBytes(address)!)
        if (allow.ranges.some((entry) => inRange(bytes, entry.range) && portOpens(entry, port)))
          continue
        const shown = literal ? host : `${host} (${address})`
        throw refuse(`fetch refused: ${shown} is a ${reason} address`, host)
      }
      const first = found[0]!
      return { host, address: first.address, family: first.family === 6 ? 6 : 4 }
    },
  }
}
