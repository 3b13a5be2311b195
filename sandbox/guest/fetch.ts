// fetch and its Headers: the request crosses as a FetchWire, the answer without its body, which
// the guest takes synchronously once the call settles (host-calls.ts says why).
import { takeBytes, type CallHost } from './call-host.ts'
import type { FetchWire, GuestHost } from './host.ts'
import { toBytes, utf8Decode, utf8Encode } from './text.ts'
import { URLSearchParams } from './url.ts'

type Pair = [string, string]

function headerPairs(headers: unknown): Pair[] {
  if (headers == null) return []
  if (typeof (headers as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function')
    return Array.from(headers as Iterable<ArrayLike<unknown>>, (p): Pair => [
      String(p[0]),
      String(p[1]),
    ])
  if (typeof headers === 'object')
    return Object.keys(headers).map((k): Pair => [
      k,
      String((headers as Record<string, unknown>)[k]),
    ])
  throw new TypeError('headers must be an object or a list of pairs')
}

export class Headers {
  declare _pairs: Pair[]

  constructor(pairs?: unknown) {
    this._pairs = headerPairs(pairs).map(([k, v]): Pair => [k.toLowerCase(), v])
  }
  get(name: unknown): string | null {
    name = String(name).toLowerCase()
    const all = this._pairs.filter((p) => p[0] === name).map((p) => p[1])
    return all.length ? all.join(', ') : null
  }
  getSetCookie(): string[] {
    return this._pairs.filter((p) => p[0] === 'set-cookie').map((p) => p[1])
  }
  has(name: unknown): boolean {
    return this.get(name) !== null
  }
  forEach(fn: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [k, v] of this._pairs) fn.call(thisArg, v, k, this)
  }
  *entries(): Generator<Pair> {
    yield* this._pairs.map((p): Pair => [p[0], p[1]])
  }
  *keys(): Generator<string> {
    for (const [k] of this._pairs) yield k
  }
  *values(): Generator<string> {
    for (const [, v] of this._pairs) yield v
  }
  [Symbol.iterator](): Generator<Pair> {
    return this.entries()
  }
}

type FetchInit = { method?: unknown; headers?: unknown; body?: unknown }

/** fetch over `__host.fetch`; `URL` is the guest's URL class (a URL input is taken by its href). */
export function makeFetch(
  host: GuestHost,
  callHost: CallHost,
  URL: abstract new (...args: never[]) => { href: string },
) {
  return async function fetch(input: unknown, init: FetchInit = {}) {
    const url = input instanceof URL ? input.href : String(input)
    const wire: FetchWire = {}
    if (init.method !== undefined) wire.method = String(init.method).toUpperCase()
    if (init.headers !== undefined) wire.headers = headerPairs(init.headers)
    if (init.body !== undefined && init.body !== null) {
      wire.body =
        typeof init.body === 'string'
          ? utf8Encode(init.body)
          : init.body instanceof URLSearchParams
            ? utf8Encode(init.body.toString())
            : toBytes(init.body).slice()
      if (
        init.body instanceof URLSearchParams &&
        !(wire.headers || []).some((p) => p[0].toLowerCase() === 'content-type')
      )
        (wire.headers = wire.headers || []).push([
          'content-type',
          'application/x-www-form-urlencoded;charset=UTF-8',
        ])
    }
    const r = await callHost(host.fetch, [url, wire])
    const body = takeBytes(host, r.parcel)
    let used = false
    const take = (): Uint8Array => {
      if (used) throw new TypeError('the response body was already read')
      used = true
      // As before the take was typed: a body that was not parked reads as null.
      return body as Uint8Array
    }
    return {
      ok: r.status >= 200 && r.status < 300,
      status: r.status,
      url: r.url,
      headers: new Headers(r.headers),
      text: async () => utf8Decode(take()),
      json: async (): Promise<unknown> => JSON.parse(utf8Decode(take())),
      bytes: async () => take(),
      arrayBuffer: async () => {
        const b = take()
        return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)
      },
    }
  }
}
