// URLSearchParams in plain JS (application/x-www-form-urlencoded), and URL parsed by the host's
// WHATWG parser (one synchronous call), so every corner of the standard is right without a parser
// here.
import type { GuestHost, UrlParts } from './host.ts'

type Pair = [string, string]

const formEncode = (s: string): string =>
  encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())

const formDecode = (s: string): string => {
  s = s.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** The URL a URLSearchParams belongs to, told of every change to it. */
const PARAMS_OWNER: unique symbol = Symbol('url')
type ParamsOwner = { _setSearchFromParams(query: string): void }

export class URLSearchParams {
  declare _list: Pair[];
  declare [PARAMS_OWNER]: ParamsOwner | null

  constructor(init: unknown = '') {
    this._list = []
    this[PARAMS_OWNER] = null
    if (init instanceof URLSearchParams) this._list = init._list.map((p) => [p[0], p[1]])
    else if (init != null && typeof init === 'object') {
      if (typeof (init as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function') {
        for (const pair of init as Iterable<ArrayLike<unknown> | Iterable<unknown>>) {
          const p = Array.from(pair)
          if (p.length !== 2) throw new TypeError('each pair needs a name and a value')
          this._list.push([String(p[0]), String(p[1])])
        }
      } else
        for (const k of Object.keys(init))
          this._list.push([k, String((init as Record<string, unknown>)[k])])
    } else this._parse(String(init))
  }
  _parse(str: string): void {
    this._list = []
    if (str.startsWith('?')) str = str.slice(1)
    for (const part of str.split('&')) {
      if (!part) continue
      const eq = part.indexOf('=')
      const name = eq < 0 ? part : part.slice(0, eq)
      const value = eq < 0 ? '' : part.slice(eq + 1)
      this._list.push([formDecode(name), formDecode(value)])
    }
  }
  _changed(): void {
    const url = this[PARAMS_OWNER]
    if (url) url._setSearchFromParams(this.toString())
  }
  get size(): number {
    return this._list.length
  }
  append(name: unknown, value: unknown): void {
    this._list.push([String(name), String(value)])
    this._changed()
  }
  delete(name: unknown): void {
    name = String(name)
    this._list = this._list.filter((p) => p[0] !== name)
    this._changed()
  }
  get(name: unknown): string | null {
    name = String(name)
    const p = this._list.find((q) => q[0] === name)
    return p ? p[1] : null
  }
  getAll(name: unknown): string[] {
    name = String(name)
    return this._list.filter((p) => p[0] === name).map((p) => p[1])
  }
  has(name: unknown): boolean {
    name = String(name)
    return this._list.some((p) => p[0] === name)
  }
  set(name: unknown, value: unknown): void {
    name = String(name)
    value = String(value)
    const i = this._list.findIndex((p) => p[0] === name)
    if (i < 0) this._list.push([name as string, value as string])
    else {
      this._list[i]![1] = value as string
      this._list = this._list.filter((p, j) => j <= i || p[0] !== name)
    }
    this._changed()
  }
  sort(): void {
    this._list = this._list
      .map((p, i): [Pair, number] => [p, i])
      .sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]))
      .map((x) => x[0])
    this._changed()
  }
  forEach(
    fn: (value: string, name: string, params: URLSearchParams) => void,
    thisArg?: unknown,
  ): void {
    for (const [k, v] of this._list) fn.call(thisArg, v, k, this)
  }
  *entries(): Generator<Pair> {
    for (const [k, v] of this._list) yield [k, v]
  }
  *keys(): Generator<string> {
    for (const [k] of this._list) yield k
  }
  *values(): Generator<string> {
    for (const [, v] of this._list) yield v
  }
  [Symbol.iterator](): Generator<Pair> {
    return this.entries()
  }
  toString(): string {
    return this._list.map(([k, v]) => formEncode(k) + '=' + formEncode(v)).join('&')
  }
}

const URL_PARTS = [
  'href',
  'origin',
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'hash',
] as const

/** The URL class over the host's parser (`__host.parseUrl`). */
export function makeUrl(host: GuestHost) {
  // The host answers the parts as JSON, or '' when the input is not a URL.
  const parseUrl = (
    input: string,
    base?: string,
    field?: string,
    value?: string,
  ): UrlParts | null => {
    const json = host.parseUrl(input, base, field, value)
    return json ? (JSON.parse(json) as UrlParts) : null
  }

  class URL implements ParamsOwner {
    declare _parts: UrlParts
    declare _params: URLSearchParams
    // Accessors over _parts, defined on the prototype below; every one but origin is settable.
    declare href: string
    declare readonly origin: string
    declare protocol: string
    declare username: string
    declare password: string
    declare host: string
    declare hostname: string
    declare port: string
    declare pathname: string
    declare search: string
    declare hash: string

    constructor(input: unknown, base?: unknown) {
      const r = parseUrl(String(input), base === undefined ? undefined : String(base))
      if (!r) throw new TypeError('Invalid URL: ' + String(input))
      this._parts = r
      this._params = new URLSearchParams(r.search)
      this._params[PARAMS_OWNER] = this
    }
    static canParse(input: unknown, base?: unknown): boolean {
      return parseUrl(String(input), base === undefined ? undefined : String(base)) !== null
    }
    _update(field: string, value: unknown): void {
      const r = parseUrl(this._parts.href, undefined, field, String(value))
      if (!r) {
        if (field === 'href') throw new TypeError('Invalid URL: ' + String(value))
        return
      }
      this._parts = r
      this._params._parse(r.search)
    }
    _setSearchFromParams(query: string): void {
      const r = parseUrl(this._parts.href, undefined, 'search', query)
      if (r) this._parts = r
    }
    get searchParams(): URLSearchParams {
      return this._params
    }
    toString(): string {
      return this._parts.href
    }
    toJSON(): string {
      return this._parts.href
    }
  }
  for (const part of URL_PARTS) {
    Object.defineProperty(URL.prototype, part, {
      get(this: URL) {
        return this._parts[part]
      },
      set:
        part === 'origin'
          ? undefined
          : function (this: URL, v: unknown) {
              this._update(part, v)
            },
      configurable: true,
      enumerable: true,
    })
  }
  return URL
}
