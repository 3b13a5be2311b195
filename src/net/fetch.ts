// Outbound HTTP for plugins, downloads and the language model: SSRF guard, host allowlist, manual
// redirects, per-domain limits, size and time caps, with the connection pinned to the checked address.
import { AppError } from '../errors.ts'
import { createAddressGuard, hostMatches, type Resolver } from './address-guard.ts'
import {
  createDomainLimits,
  type DomainRule,
  type PaceClock,
  type RuleLease,
  type RuleMatch,
} from './domain-rules.ts'

/** Redirects followed by hand, each hop checked again; one more is an error. */
export const MAX_REDIRECTS = 5

export type OutboundInit = {
  method?: string
  headers?: Record<string, string> | [string, string][]
  /** A string or bytes, so a 307/308 redirect can send it again. */
  body?: string | Uint8Array<ArrayBuffer>
  signal?: AbortSignal
}

export type OutboundOptions = {
  /** The only hosts this caller may reach (a plugin's `hosts`): exact or `*.example.com`. */
  allowedHosts?: readonly string[]
  /** Response bytes received so far and the announced length (undefined when not announced). */
  onProgress?: (receivedBytes: number, totalBytes: number | undefined) => void
  /** Receives the body chunk by chunk instead of keeping it (downloads to disk); `body` is empty. */
  sink?: (chunk: Uint8Array) => void | Promise<void>
  /**
   * The final response's status and headers, before any body byte reaches `sink` (a download
   * refuses a 500 before its error page lands in the file); a throw cancels the body.
   */
  onResponse?: (status: number, headers: Headers) => void | Promise<void>
  /**
   * A tighter size cap than the client's for this request. With a `sink` the body is never held
   * in memory, so the client's cap (a memory bound) does not apply and this one is the only cap.
   */
  maxResponseBytes?: number
  /** The whole exchange's time budget instead of the client's (a large download). */
  timeoutMs?: number
}

export type OutboundResponse = {
  status: number
  headers: Headers
  /** The final URL, after redirects. */
  url: string
  body: Uint8Array
  /** The domain rule that applied to the final host, when one did. */
  matchedPattern?: string
  bytesPerSec?: number
}

export type OutboundFetch = {
  fetchOutbound(url: string, init?: OutboundInit, opts?: OutboundOptions): Promise<OutboundResponse>
  /** Replaces the domain rules; buckets and slots of patterns that stay are kept. */
  setRules(rules: readonly DomainRule[]): void
  /** The rule a URL falls under now (JobStatus shows it before the transfer starts). */
  ruleFor(url: string): RuleMatch | undefined
}

export type OutboundConfig = {
  rules?: readonly DomainRule[]
  /** Config `fetchAllowPrivate`: host names, IPs or CIDRs that may be private, each maybe with a port. */
  allowPrivate?: readonly string[]
  maxResponseBytes: number
  /** For the whole exchange: every hop, the waits for slots and bucket, and the body. */
  timeoutMs: number
  /** Name resolution; tests map fake names to 127.0.0.1. */
  resolve?: Resolver
  /** PEM certificates trusted instead of the system roots (a private CA; tests). */
  trustedCa?: string
  /** The clock the byte-rate buckets pace by; the wall clock unless a test passes its own. */
  paceClock?: PaceClock
}

const refused = (message: string, reason: string, extra?: Record<string, unknown>) =>
  new AppError('forbidden', message, { reason, ...extra })

// Credentials must not follow a redirect to another origin (what browsers and undici do).
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization']

function parseTarget(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new AppError('bad_request', `fetch refused: not a URL: ${raw.slice(0, 200)}`, {
      reason: 'bad_url',
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(`fetch refused: only http and https, not ${url.protocol}`, 'scheme')
  return url
}

/** The port a URL connects to (its scheme's default when it names none). */
const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80)

function checkAllowed(url: URL, allowedHosts: readonly string[] | undefined): void {
  if (!allowedHosts) return
  if (allowedHosts.some((pattern) => hostMatches(pattern, url.hostname))) return
  throw refused(
    `fetch refused: ${url.hostname} is not among the allowed hosts`,
    'host_not_allowed',
    {
      host: url.hostname,
    },
  )
}

async function readBody(
  response: Response,
  lease: RuleLease,
  cap: number,
  signal: AbortSignal,
  opts: OutboundOptions,
): Promise<Uint8Array> {
  const announced = Number(response.headers.get('content-length') ?? Number.NaN)
  // A compressed body's length counts other bytes than the decoded ones read here: no total then,
  // though a compressed length already over the cap is still refused.
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity'
  const length = Number.isFinite(announced) ? announced : undefined
  const total = encoded ? undefined : length
  const tooLarge = () =>
    new AppError('unprocessable', `fetch failed: response larger than ${cap} bytes`, {
      reason: 'too_large',
      limit: cap,
    })
  if (length !== undefined && length > cap) {
    await response.body?.cancel()
    throw tooLarge()
  }
  const chunks: Uint8Array[] = []
  let received = 0
  if (!response.body) return new Uint8Array()
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      received += value.byteLength
      // A body without (or lying about) its length is cut as soon as it passes the cap.
      if (received > cap) throw tooLarge()
      await lease.take(value.byteLength, signal)
      if (opts.sink) await opts.sink(value)
      else chunks.push(value)
      opts.onProgress?.(received, total)
    }
  } catch (err) {
    await reader.cancel().catch(() => {})
    throw err
  }
  if (opts.sink) return new Uint8Array()
  const body = new Uint8Array(received)
  let at = 0
  for (const chunk of chunks) {
    body.set(chunk, at)
    at += chunk.byteLength
  }
  return body
}

export function createOutboundFetch(config: OutboundConfig): OutboundFetch {
  const guard = createAddressGuard({
    allowPrivate: config.allowPrivate ?? [],
    resolve: config.resolve,
  })
  const limits = createDomainLimits(config.rules ?? [], config.paceClock)

  async function exchange(
    rawUrl: string,
    init: OutboundInit,
    opts: OutboundOptions,
    signal: AbortSignal,
  ): Promise<OutboundResponse> {
    const cap =
      opts.sink && opts.maxResponseBytes !== undefined
        ? opts.maxResponseBytes
        : Math.min(opts.maxResponseBytes ?? Infinity, config.maxResponseBytes)
    let url = parseTarget(rawUrl)
    let method = (init.method ?? 'GET').toUpperCase()
    let body = init.body
    const headers = new Headers(init.headers)
    headers.delete('host')
    for (let hop = 0; ; hop++) {
      checkAllowed(url, opts.allowedHosts)
      const target = await guard.check(url.hostname, signal, portOf(url))
      const lease = await limits.acquire(target.host, signal)
      try {
        // Connect to the address the guard passed, not to the name: a second lookup by fetch could
        // answer differently (DNS rebinding). Host header and TLS server name keep the real name,
        // so virtual hosts work and the certificate is verified against the name.
        const pinned = new URL(url)
        pinned.hostname = target.family === 6 ? `[${target.address}]` : target.address
        headers.set('host', url.host)
        const response = await fetch(pinned, {
          method,
          headers,
          body: method === 'GET' || method === 'HEAD' ? undefined : body,
          redirect: 'manual',
          signal,
          proxy: false,
          ...(url.protocol === 'https:'
            ? { tls: { serverName: url.hostname, ca: config.trustedCa } }
            : {}),
        }).catch((cause: unknown) => {
          if (signal.aborted) throw cause
          throw new AppError(
            'bad_request',
            `fetch failed: ${url.host}: ${(cause as Error).message ?? cause}`.replace(
              pinned.host,
              url.host,
            ),
            { reason: 'network' },
            { cause },
          )
        })
        const location = response.headers.get('location')
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel()
          if (hop >= MAX_REDIRECTS)
            throw new AppError(
              'unprocessable',
              `fetch failed: more than ${MAX_REDIRECTS} redirects`,
              { reason: 'too_many_redirects' },
            )
          const next = parseTarget(new URL(location, url).href)
          if (next.origin !== url.origin)
            for (const name of CREDENTIAL_HEADERS) headers.delete(name)
          // 301/302/303 turn a POST into a GET without body, as browsers do; 307/308 keep both.
          if (
            response.status === 303 ||
            ((response.status === 301 || response.status === 302) && method === 'POST')
          ) {
            if (method !== 'HEAD') method = 'GET'
            body = undefined
            headers.delete('content-type')
            headers.delete('content-length')
          }
          url = next
          continue
        }
        if (opts.onResponse)
          try {
            await opts.onResponse(response.status, response.headers)
          } catch (err) {
            await response.body?.cancel().catch(() => {})
            throw err
          }
        const bytes = await readBody(response, lease, cap, signal, opts)
        return {
          status: response.status,
          headers: response.headers,
          url: url.href,
          body: bytes,
          matchedPattern: lease.match?.pattern,
          bytesPerSec: lease.match?.bytesPerSec,
        }
      } finally {
        lease.release()
      }
    }
  }

  return {
    async fetchOutbound(url, init = {}, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? config.timeoutMs
      const timeout = AbortSignal.timeout(timeoutMs)
      const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout
      try {
        return await exchange(url, init, opts, signal)
      } catch (err) {
        if (timeout.aborted && !init.signal?.aborted)
          throw new AppError(
            'unprocessable',
            `fetch failed: no answer within ${timeoutMs} ms`,
            { reason: 'timeout' },
            { cause: err },
          )
        throw err
      }
    },
    setRules: (rules) => limits.setRules(rules),
    ruleFor(url) {
      return limits.match(parseTarget(url).hostname)
    },
  }
}
