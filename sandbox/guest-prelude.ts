// The JavaScript installed in every plugin context before the plugin: the only globals a plugin
// gets (fetch, console, sleep, URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa, html
// from guest-html.ts, and the ctx builder). It reads the host callbacks from `__host`, keeps them
// in closures and deletes the global, so plugin code can reach the host only through these
// wrappers.
//
// `__host` (set by isolate.ts): fetch and entry and sleep are ivm.References answered with a
// promise; log and parseUrl are synchronous ivm.Callbacks.

import { GUEST_HTML } from './guest-html.ts'

export const GUEST_PRELUDE =
  String.raw`
'use strict';
(() => {
  const host = globalThis.__host;
  delete globalThis.__host;
  const G = globalThis;
  const define = (name, value) =>
    Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false });
  const asyncCall = { arguments: { copy: true }, result: { promise: true, copy: true } };

  // UTF-8 by hand: the context has no TextEncoder of its own.
  function utf8Encode(str) {
    str = String(str);
    const out = [];
    for (let i = 0; i < str.length; i++) {
      let c = str.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
        const d = str.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        } else c = 0xfffd;
      } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else
        out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return new Uint8Array(out);
  }
  function utf8Decode(bytes) {
    let s = '';
    const n = bytes.length;
    let i = 0;
    const parts = [];
    while (i < n) {
      const b = bytes[i];
      let c = 0xfffd;
      let len = 1;
      if (b < 0x80) c = b;
      else if (b >= 0xc2 && b < 0xe0 && i + 1 < n && (bytes[i + 1] & 0xc0) === 0x80) {
        c = ((b & 31) << 6) | (bytes[i + 1] & 63);
        len = 2;
      } else if (b >= 0xe0 && b < 0xf0 && i + 2 < n && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80) {
        c = ((b & 15) << 12) | ((bytes[i + 1] & 63) << 6) | (bytes[i + 2] & 63);
        if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff)) c = 0xfffd;
        len = 3;
      } else if (b >= 0xf0 && b < 0xf5 && i + 3 < n && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80 && (bytes[i + 3] & 0xc0) === 0x80) {
        c = ((b & 7) << 18) | ((bytes[i + 1] & 63) << 12) | ((bytes[i + 2] & 63) << 6) | (bytes[i + 3] & 63);
        if (c < 0x10000 || c > 0x10ffff) c = 0xfffd;
        len = 4;
      }
      i += len;
      if (c >= 0x10000) {
        c -= 0x10000;
        parts.push(0xd800 + (c >> 10), 0xdc00 + (c & 1023));
      } else parts.push(c);
      if (parts.length > 8192) {
        s += String.fromCharCode.apply(null, parts);
        parts.length = 0;
      }
    }
    return s + String.fromCharCode.apply(null, parts);
  }
  function toBytes(input) {
    if (input == null) return new Uint8Array(0);
    if (input instanceof Uint8Array) return input;
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError('expected bytes (Uint8Array or ArrayBuffer)');
  }

  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(str = '') { return utf8Encode(str); }
  }
  class TextDecoder {
    constructor(label = 'utf-8') {
      const l = String(label).toLowerCase();
      if (l !== 'utf-8' && l !== 'utf8') throw new RangeError('only utf-8 is supported');
    }
    get encoding() { return 'utf-8'; }
    decode(input) {
      let b = toBytes(input);
      if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
      return utf8Decode(b);
    }
  }

  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function bytesToB64(bytes) {
    let out = '';
    let i = 0;
    for (; i + 2 < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
    }
    if (i < bytes.length) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8);
      out += B64[n >> 18] + B64[(n >> 12) & 63];
      out += i + 1 < bytes.length ? B64[(n >> 6) & 63] + '=' : '==';
    }
    return out;
  }
  function b64ToBytes(str) {
    str = String(str).replace(/[\t\n\f\r ]/g, '');
    if (str.length % 4 === 0) str = str.replace(/==?$/, '');
    if (str.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(str))
      throw new Error('The string to be decoded is not correctly encoded.');
    const out = new Uint8Array(Math.floor((str.length * 3) / 4));
    let bits = 0, value = 0, j = 0;
    for (let i = 0; i < str.length; i++) {
      value = (value << 6) | B64.indexOf(str[i]);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[j++] = (value >> bits) & 255;
      }
    }
    return out.subarray(0, j);
  }
  function btoa(str) {
    str = String(str);
    const bytes = new Uint8Array(str.length);
    for (let i = 0; i < str.length; i++) {
      const c = str.charCodeAt(i);
      if (c > 255) throw new Error('btoa: the string has characters outside of Latin1');
      bytes[i] = c;
    }
    return bytesToB64(bytes);
  }
  function atob(str) {
    const bytes = b64ToBytes(str);
    let s = '';
    for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return s;
  }

  // URLSearchParams in plain JS (application/x-www-form-urlencoded).
  const formEncode = (s) =>
    encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const formDecode = (s) => {
    s = s.replace(/\+/g, ' ');
    try { return decodeURIComponent(s); } catch { return s; }
  };
  const PARAMS_OWNER = Symbol('url');
  class URLSearchParams {
    constructor(init = '') {
      this._list = [];
      this[PARAMS_OWNER] = null;
      if (init instanceof URLSearchParams) this._list = init._list.map((p) => [p[0], p[1]]);
      else if (init != null && typeof init === 'object') {
        if (typeof init[Symbol.iterator] === 'function') {
          for (const pair of init) {
            const p = Array.from(pair);
            if (p.length !== 2) throw new TypeError('each pair needs a name and a value');
            this._list.push([String(p[0]), String(p[1])]);
          }
        } else for (const k of Object.keys(init)) this._list.push([k, String(init[k])]);
      } else this._parse(String(init));
    }
    _parse(str) {
      this._list = [];
      if (str.startsWith('?')) str = str.slice(1);
      for (const part of str.split('&')) {
        if (!part) continue;
        const eq = part.indexOf('=');
        const name = eq < 0 ? part : part.slice(0, eq);
        const value = eq < 0 ? '' : part.slice(eq + 1);
        this._list.push([formDecode(name), formDecode(value)]);
      }
    }
    _changed() {
      const url = this[PARAMS_OWNER];
      if (url) url._setSearchFromParams(this.toString());
    }
    get size() { return this._list.length; }
    append(name, value) { this._list.push([String(name), String(value)]); this._changed(); }
    delete(name) { name = String(name); this._list = this._list.filter((p) => p[0] !== name); this._changed(); }
    get(name) { name = String(name); const p = this._list.find((q) => q[0] === name); return p ? p[1] : null; }
    getAll(name) { name = String(name); return this._list.filter((p) => p[0] === name).map((p) => p[1]); }
    has(name) { name = String(name); return this._list.some((p) => p[0] === name); }
    set(name, value) {
      name = String(name);
      value = String(value);
      const i = this._list.findIndex((p) => p[0] === name);
      if (i < 0) this._list.push([name, value]);
      else {
        this._list[i][1] = value;
        this._list = this._list.filter((p, j) => j <= i || p[0] !== name);
      }
      this._changed();
    }
    sort() {
      this._list = this._list.map((p, i) => [p, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map((x) => x[0]);
      this._changed();
    }
    forEach(fn, thisArg) { for (const [k, v] of this._list) fn.call(thisArg, v, k, this); }
    *entries() { for (const [k, v] of this._list) yield [k, v]; }
    *keys() { for (const [k] of this._list) yield k; }
    *values() { for (const [, v] of this._list) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this._list.map(([k, v]) => formEncode(k) + '=' + formEncode(v)).join('&'); }
  }

  // URL: parsed by the host's WHATWG parser (one synchronous call), so every corner of the
  // standard is right without a parser here.
  // The host answers the parts as JSON, or '' when the input is not a URL.
  const parseUrl = (input, base, field, value) => {
    const json = host.parseUrl(input, base, field, value);
    return json ? JSON.parse(json) : null;
  };
  const URL_PARTS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];
  class URL {
    constructor(input, base) {
      const r = parseUrl(String(input), base === undefined ? undefined : String(base));
      if (!r) throw new TypeError('Invalid URL: ' + String(input));
      this._parts = r;
      this._params = new URLSearchParams(r.search);
      this._params[PARAMS_OWNER] = this;
    }
    static canParse(input, base) {
      return parseUrl(String(input), base === undefined ? undefined : String(base)) !== null;
    }
    _update(field, value) {
      const r = parseUrl(this._parts.href, undefined, field, String(value));
      if (!r) {
        if (field === 'href') throw new TypeError('Invalid URL: ' + String(value));
        return;
      }
      this._parts = r;
      this._params._parse(r.search);
    }
    _setSearchFromParams(query) {
      const r = parseUrl(this._parts.href, undefined, 'search', query);
      if (r) this._parts = r;
    }
    get searchParams() { return this._params; }
    toString() { return this._parts.href; }
    toJSON() { return this._parts.href; }
  }
  for (const part of URL_PARTS) {
    Object.defineProperty(URL.prototype, part, {
      get() { return this._parts[part]; },
      set: part === 'origin' ? undefined : function (v) { this._update(part, v); },
      configurable: true,
      enumerable: true,
    });
  }

  function format(args) {
    return args
      .map((a) => {
        if (typeof a === 'string') return a;
        if (a instanceof Error) return a.stack || String(a);
        try {
          const json = JSON.stringify(a);
          return json === undefined ? String(a) : json;
        } catch {
          return String(a);
        }
      })
      .join(' ');
  }
  const console = {
    log: (...args) => host.log('log', format(args)),
    info: (...args) => host.log('info', format(args)),
    debug: (...args) => host.log('debug', format(args)),
    warn: (...args) => host.log('warn', format(args)),
    error: (...args) => host.log('error', format(args)),
  };

  function headerPairs(headers) {
    if (headers == null) return [];
    if (typeof headers[Symbol.iterator] === 'function') return Array.from(headers, (p) => [String(p[0]), String(p[1])]);
    if (typeof headers === 'object') return Object.keys(headers).map((k) => [k, String(headers[k])]);
    throw new TypeError('headers must be an object or a list of pairs');
  }
  class Headers {
    constructor(pairs) { this._pairs = headerPairs(pairs).map(([k, v]) => [k.toLowerCase(), v]); }
    get(name) {
      name = String(name).toLowerCase();
      const all = this._pairs.filter((p) => p[0] === name).map((p) => p[1]);
      return all.length ? all.join(', ') : null;
    }
    getSetCookie() { return this._pairs.filter((p) => p[0] === 'set-cookie').map((p) => p[1]); }
    has(name) { return this.get(name) !== null; }
    forEach(fn, thisArg) { for (const [k, v] of this._pairs) fn.call(thisArg, v, k, this); }
    *entries() { yield* this._pairs.map((p) => [p[0], p[1]]); }
    *keys() { for (const [k] of this._pairs) yield k; }
    *values() { for (const [, v] of this._pairs) yield v; }
    [Symbol.iterator]() { return this.entries(); }
  }

  async function fetch(input, init = {}) {
    const url = input instanceof URL ? input.href : String(input);
    const wire = {};
    if (init.method !== undefined) wire.method = String(init.method).toUpperCase();
    if (init.headers !== undefined) wire.headers = headerPairs(init.headers);
    if (init.body !== undefined && init.body !== null) {
      wire.body =
        typeof init.body === 'string' ? utf8Encode(init.body)
        : init.body instanceof URLSearchParams ? utf8Encode(init.body.toString())
        : toBytes(init.body).slice();
      if (init.body instanceof URLSearchParams && !(wire.headers || []).some((p) => p[0].toLowerCase() === 'content-type'))
        (wire.headers = wire.headers || []).push(['content-type', 'application/x-www-form-urlencoded;charset=UTF-8']);
    }
    const r = await host.fetch.apply(undefined, [url, wire], asyncCall);
    const body = r.body;
    let used = false;
    const take = () => {
      if (used) throw new TypeError('the response body was already read');
      used = true;
      return body;
    };
    return {
      ok: r.status >= 200 && r.status < 300,
      status: r.status,
      url: r.url,
      headers: new Headers(r.headers),
      text: async () => utf8Decode(take()),
      json: async () => JSON.parse(utf8Decode(take())),
      bytes: async () => take(),
      arrayBuffer: async () => { const b = take(); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); },
    };
  }

  const sleep = (ms) => host.sleep.apply(undefined, [Number(ms) || 0], asyncCall);

  // A script plugin's grant of the library: each method crosses as JSON text both ways, and the
  // host checks every argument.
  const LIBRARY_METHODS = ['search', 'archives', 'categories', 'createCategory', 'addToCategory', 'deleteCategory'];
  function makeLibrary() {
    const library = {};
    for (const method of LIBRARY_METHODS) {
      library[method] = async (...args) => {
        const json = await host.library.apply(undefined, [method, JSON.stringify(args)], asyncCall);
        return JSON.parse(json);
      };
    }
    return Object.freeze(library);
  }

  // The ctx a plugin entry gets: the host's JSON plus entry(name) for archive entries, and the
  // library for script plugins (the host marks their ctx with library: true).
  function makeCtx(json) {
    const ctx = JSON.parse(json) || {};
    ctx.entry = (name) => host.entry.apply(undefined, [String(name)], asyncCall);
    if (ctx.library === true) ctx.library = makeLibrary();
    else delete ctx.library;
    return ctx;
  }

  define('TextEncoder', TextEncoder);
  define('TextDecoder', TextDecoder);
  define('atob', atob);
  define('btoa', btoa);
  define('URL', URL);
  define('URLSearchParams', URLSearchParams);
  define('Headers', Headers);
  define('console', console);
  define('fetch', fetch);
  define('sleep', sleep);
  Object.defineProperty(G, '__makeCtx', { value: makeCtx, configurable: true });
  // For the entry's caller (isolate.ts): called once the entry has ended, so every log line is in.
  Object.defineProperty(G, '__drainLog', { value: () => host.drainLog(), configurable: true });
})();
` + GUEST_HTML
