// Generated from sandbox/guest/ by scripts/build-guest.ts (npm run build:guest): do not edit.
// The guest prelude: the script isolate.ts runs in every plugin context before the plugin.
export const GUEST_PRELUDE = `'use strict';
(() => {
  var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  function bytesToB64(bytes) {
    let out = "";
    let i = 0;
    for (;i + 2 < bytes.length; i += 3) {
      const n = bytes[i] << 16 | bytes[i + 1] << 8 | bytes[i + 2];
      out += B64[n >> 18] + B64[n >> 12 & 63] + B64[n >> 6 & 63] + B64[n & 63];
    }
    if (i < bytes.length) {
      const n = bytes[i] << 16 | (bytes[i + 1] || 0) << 8;
      out += B64[n >> 18] + B64[n >> 12 & 63];
      out += i + 1 < bytes.length ? B64[n >> 6 & 63] + "=" : "==";
    }
    return out;
  }
  function b64ToBytes(input) {
    let str = String(input).replace(/[\\t\\n\\f\\r ]/g, "");
    if (str.length % 4 === 0)
      str = str.replace(/==?$/, "");
    if (str.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(str))
      throw new Error("The string to be decoded is not correctly encoded.");
    const out = new Uint8Array(Math.floor(str.length * 3 / 4));
    let bits = 0, value = 0, j = 0;
    for (let i = 0;i < str.length; i++) {
      value = value << 6 | B64.indexOf(str[i]);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[j++] = value >> bits & 255;
      }
    }
    return out.subarray(0, j);
  }
  function btoa(input) {
    const str = String(input);
    const bytes = new Uint8Array(str.length);
    for (let i = 0;i < str.length; i++) {
      const c = str.charCodeAt(i);
      if (c > 255)
        throw new Error("btoa: the string has characters outside of Latin1");
      bytes[i] = c;
    }
    return bytesToB64(bytes);
  }
  function atob(input) {
    const bytes = b64ToBytes(input);
    let s = "";
    for (let i = 0;i < bytes.length; i++)
      s += String.fromCharCode(bytes[i]);
    return s;
  }
  var MAX_HOST_CALLS_IN_FLIGHT = 32;
  var plain = (fields) => Object.freeze(Object.assign(Object.create(null), fields));
  var asyncCall = plain({
    arguments: plain({ copy: true }),
    result: plain({ promise: true, copy: true })
  });
  function createCallHost() {
    let inFlight = 0;
    return async (fn, args) => {
      if (inFlight >= MAX_HOST_CALLS_IN_FLIGHT)
        throw new Error("too many host calls in flight (" + MAX_HOST_CALLS_IN_FLIGHT + "): await some before starting more");
      inFlight++;
      try {
        return await fn.apply(undefined, args, asyncCall);
      } catch (err) {
        throw new Error(err != null && typeof err.message === "string" ? err.message : String(err));
      } finally {
        inFlight--;
      }
    };
  }
  function takeBytes(host, parcel) {
    if (typeof parcel === "string") {
      const bytes = new Uint8Array(parcel.length);
      for (let i = 0;i < parcel.length; i++)
        bytes[i] = parcel.charCodeAt(i);
      return bytes;
    }
    return parcel ? host.take(parcel) : null;
  }
  function format(args) {
    return args.map((a) => {
      if (typeof a === "string")
        return a;
      if (a instanceof Error)
        return a.stack || String(a);
      try {
        const json = JSON.stringify(a);
        return json === undefined ? String(a) : json;
      } catch {
        return String(a);
      }
    }).join(" ");
  }
  function makeConsole(host) {
    return {
      log: (...args) => host.log("log", format(args)),
      info: (...args) => host.log("info", format(args)),
      debug: (...args) => host.log("debug", format(args)),
      warn: (...args) => host.log("warn", format(args)),
      error: (...args) => host.log("error", format(args))
    };
  }
  var LIBRARY_METHODS = [
    "search",
    "archives",
    "categories",
    "createCategory",
    "addToCategory",
    "deleteCategory"
  ];
  function makeLibrary(host, callHost) {
    const library = {};
    for (const method of LIBRARY_METHODS) {
      library[method] = async (...args) => {
        const json = await callHost(host.library, [method, JSON.stringify(args)]);
        return JSON.parse(json);
      };
    }
    return Object.freeze(library);
  }
  function makeCtxBuilder(host, callHost) {
    return function makeCtx(json) {
      const ctx = JSON.parse(json) || {};
      ctx.entry = async (name) => takeBytes(host, await callHost(host.entry, [String(name)]));
      if (ctx.library === true)
        ctx.library = makeLibrary(host, callHost);
      else
        delete ctx.library;
      return ctx;
    };
  }
  function utf8Encode(input) {
    const str = String(input);
    const out = [];
    for (let i = 0;i < str.length; i++) {
      let c = str.charCodeAt(i);
      if (c >= 55296 && c <= 56319 && i + 1 < str.length) {
        const d = str.charCodeAt(i + 1);
        if (d >= 56320 && d <= 57343) {
          c = 65536 + (c - 55296 << 10) + (d - 56320);
          i++;
        } else
          c = 65533;
      } else if (c >= 55296 && c <= 57343)
        c = 65533;
      if (c < 128)
        out.push(c);
      else if (c < 2048)
        out.push(192 | c >> 6, 128 | c & 63);
      else if (c < 65536)
        out.push(224 | c >> 12, 128 | c >> 6 & 63, 128 | c & 63);
      else
        out.push(240 | c >> 18, 128 | c >> 12 & 63, 128 | c >> 6 & 63, 128 | c & 63);
    }
    return new Uint8Array(out);
  }
  function utf8Decode(bytes) {
    let s = "";
    const n = bytes.length;
    let i = 0;
    const parts = [];
    while (i < n) {
      const b = bytes[i];
      let c = 65533;
      let len = 1;
      if (b < 128)
        c = b;
      else if (b >= 194 && b < 224 && i + 1 < n && (bytes[i + 1] & 192) === 128) {
        c = (b & 31) << 6 | bytes[i + 1] & 63;
        len = 2;
      } else if (b >= 224 && b < 240 && i + 2 < n && (bytes[i + 1] & 192) === 128 && (bytes[i + 2] & 192) === 128) {
        c = (b & 15) << 12 | (bytes[i + 1] & 63) << 6 | bytes[i + 2] & 63;
        if (c < 2048 || c >= 55296 && c <= 57343)
          c = 65533;
        len = 3;
      } else if (b >= 240 && b < 245 && i + 3 < n && (bytes[i + 1] & 192) === 128 && (bytes[i + 2] & 192) === 128 && (bytes[i + 3] & 192) === 128) {
        c = (b & 7) << 18 | (bytes[i + 1] & 63) << 12 | (bytes[i + 2] & 63) << 6 | bytes[i + 3] & 63;
        if (c < 65536 || c > 1114111)
          c = 65533;
        len = 4;
      }
      i += len;
      if (c >= 65536) {
        c -= 65536;
        parts.push(55296 + (c >> 10), 56320 + (c & 1023));
      } else
        parts.push(c);
      if (parts.length > 8192) {
        s += String.fromCharCode.apply(null, parts);
        parts.length = 0;
      }
    }
    return s + String.fromCharCode.apply(null, parts);
  }
  function toBytes(input) {
    if (input == null)
      return new Uint8Array(0);
    if (input instanceof Uint8Array)
      return input;
    if (input instanceof ArrayBuffer)
      return new Uint8Array(input);
    if (ArrayBuffer.isView(input))
      return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError("expected bytes (Uint8Array or ArrayBuffer)");
  }

  class TextEncoder {
    get encoding() {
      return "utf-8";
    }
    encode(str = "") {
      return utf8Encode(str);
    }
  }

  class TextDecoder {
    constructor(label = "utf-8") {
      const l = String(label).toLowerCase();
      if (l !== "utf-8" && l !== "utf8")
        throw new RangeError("only utf-8 is supported");
    }
    get encoding() {
      return "utf-8";
    }
    decode(input) {
      let b = toBytes(input);
      if (b.length >= 3 && b[0] === 239 && b[1] === 187 && b[2] === 191)
        b = b.subarray(3);
      return utf8Decode(b);
    }
  }
  var formEncode = (s) => encodeURIComponent(s).replace(/%20/g, "+").replace(/[!'()~]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  var formDecode = (s) => {
    s = s.replace(/\\+/g, " ");
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  var PARAMS_OWNER = Symbol("url");

  class URLSearchParams {
    constructor(init = "") {
      this._list = [];
      this[PARAMS_OWNER] = null;
      if (init instanceof URLSearchParams)
        this._list = init._list.map((p) => [p[0], p[1]]);
      else if (init != null && typeof init === "object") {
        if (typeof init[Symbol.iterator] === "function") {
          for (const pair of init) {
            const p = Array.from(pair);
            if (p.length !== 2)
              throw new TypeError("each pair needs a name and a value");
            this._list.push([String(p[0]), String(p[1])]);
          }
        } else
          for (const k of Object.keys(init))
            this._list.push([k, String(init[k])]);
      } else
        this._parse(String(init));
    }
    _parse(str) {
      this._list = [];
      if (str.startsWith("?"))
        str = str.slice(1);
      for (const part of str.split("&")) {
        if (!part)
          continue;
        const eq = part.indexOf("=");
        const name = eq < 0 ? part : part.slice(0, eq);
        const value = eq < 0 ? "" : part.slice(eq + 1);
        this._list.push([formDecode(name), formDecode(value)]);
      }
    }
    _changed() {
      const url = this[PARAMS_OWNER];
      if (url)
        url._setSearchFromParams(this.toString());
    }
    get size() {
      return this._list.length;
    }
    append(name, value) {
      this._list.push([String(name), String(value)]);
      this._changed();
    }
    delete(name) {
      name = String(name);
      this._list = this._list.filter((p) => p[0] !== name);
      this._changed();
    }
    get(name) {
      name = String(name);
      const p = this._list.find((q) => q[0] === name);
      return p ? p[1] : null;
    }
    getAll(name) {
      name = String(name);
      return this._list.filter((p) => p[0] === name).map((p) => p[1]);
    }
    has(name) {
      name = String(name);
      return this._list.some((p) => p[0] === name);
    }
    set(name, value) {
      name = String(name);
      value = String(value);
      const i = this._list.findIndex((p) => p[0] === name);
      if (i < 0)
        this._list.push([name, value]);
      else {
        this._list[i][1] = value;
        this._list = this._list.filter((p, j) => j <= i || p[0] !== name);
      }
      this._changed();
    }
    sort() {
      this._list = this._list.map((p, i) => [p, i]).sort((a, b) => a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]).map((x) => x[0]);
      this._changed();
    }
    forEach(fn, thisArg) {
      for (const [k, v] of this._list)
        fn.call(thisArg, v, k, this);
    }
    *entries() {
      for (const [k, v] of this._list)
        yield [k, v];
    }
    *keys() {
      for (const [k] of this._list)
        yield k;
    }
    *values() {
      for (const [, v] of this._list)
        yield v;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    toString() {
      return this._list.map(([k, v]) => formEncode(k) + "=" + formEncode(v)).join("&");
    }
  }
  var URL_PARTS = [
    "href",
    "origin",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash"
  ];
  function makeUrl(host) {
    const parseUrl = (input, base, field, value) => {
      const json = host.parseUrl(input, base, field, value);
      return json ? JSON.parse(json) : null;
    };

    class URL {
      constructor(input, base) {
        const r = parseUrl(String(input), base === undefined ? undefined : String(base));
        if (!r)
          throw new TypeError("Invalid URL: " + String(input));
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
          if (field === "href")
            throw new TypeError("Invalid URL: " + String(value));
          return;
        }
        this._parts = r;
        this._params._parse(r.search);
      }
      _setSearchFromParams(query) {
        const r = parseUrl(this._parts.href, undefined, "search", query);
        if (r)
          this._parts = r;
      }
      get searchParams() {
        return this._params;
      }
      toString() {
        return this._parts.href;
      }
      toJSON() {
        return this._parts.href;
      }
    }
    for (const part of URL_PARTS) {
      Object.defineProperty(URL.prototype, part, {
        get() {
          return this._parts[part];
        },
        set: part === "origin" ? undefined : function(v) {
          this._update(part, v);
        },
        configurable: true,
        enumerable: true
      });
    }
    return URL;
  }
  function headerPairs(headers) {
    if (headers == null)
      return [];
    if (typeof headers[Symbol.iterator] === "function")
      return Array.from(headers, (p) => [
        String(p[0]),
        String(p[1])
      ]);
    if (typeof headers === "object")
      return Object.keys(headers).map((k) => [
        k,
        String(headers[k])
      ]);
    throw new TypeError("headers must be an object or a list of pairs");
  }

  class Headers {
    constructor(pairs) {
      this._pairs = headerPairs(pairs).map(([k, v]) => [k.toLowerCase(), v]);
    }
    get(name) {
      name = String(name).toLowerCase();
      const all = this._pairs.filter((p) => p[0] === name).map((p) => p[1]);
      return all.length ? all.join(", ") : null;
    }
    getSetCookie() {
      return this._pairs.filter((p) => p[0] === "set-cookie").map((p) => p[1]);
    }
    has(name) {
      return this.get(name) !== null;
    }
    forEach(fn, thisArg) {
      for (const [k, v] of this._pairs)
        fn.call(thisArg, v, k, this);
    }
    *entries() {
      yield* this._pairs.map((p) => [p[0], p[1]]);
    }
    *keys() {
      for (const [k] of this._pairs)
        yield k;
    }
    *values() {
      for (const [, v] of this._pairs)
        yield v;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
  }
  function makeFetch(host, callHost, URL) {
    return async function fetch(input, init = {}) {
      const url = input instanceof URL ? input.href : String(input);
      const wire = {};
      if (init.method !== undefined)
        wire.method = String(init.method).toUpperCase();
      if (init.headers !== undefined)
        wire.headers = headerPairs(init.headers);
      if (init.body !== undefined && init.body !== null) {
        wire.body = typeof init.body === "string" ? utf8Encode(init.body) : init.body instanceof URLSearchParams ? utf8Encode(init.body.toString()) : toBytes(init.body).slice();
        if (init.body instanceof URLSearchParams && !(wire.headers || []).some((p) => p[0].toLowerCase() === "content-type"))
          (wire.headers = wire.headers || []).push([
            "content-type",
            "application/x-www-form-urlencoded;charset=UTF-8"
          ]);
      }
      const r = await callHost(host.fetch, [url, wire]);
      const body = takeBytes(host, r.parcel);
      let used = false;
      const take = () => {
        if (used)
          throw new TypeError("the response body was already read");
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
        arrayBuffer: async () => {
          const b = take();
          return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
        }
      };
    };
  }
  var VOID = new Set([
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "param",
    "source",
    "track",
    "wbr"
  ]);
  var RAW = new Set(["script", "style", "textarea", "title", "xmp"]);
  var CLOSES = {
    li: ["li"],
    dt: ["dt", "dd"],
    dd: ["dt", "dd"],
    tr: ["tr", "td", "th"],
    td: ["td", "th"],
    th: ["td", "th"],
    option: ["option"],
    thead: ["tbody", "tfoot"],
    tbody: ["thead", "tbody", "tfoot"],
    tfoot: ["thead", "tbody"]
  };
  var BLOCK = new Set([
    "address",
    "article",
    "aside",
    "blockquote",
    "div",
    "dl",
    "fieldset",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul"
  ]);
  var ENTITIES = {
    amp: "&",
    lt: "<",
    gt: ">",
    quot: '"',
    apos: "'",
    nbsp: " ",
    hellip: "…",
    mdash: "—",
    ndash: "–",
    laquo: "«",
    raquo: "»",
    copy: "©",
    reg: "®",
    trade: "™",
    lsquo: "‘",
    rsquo: "’",
    ldquo: "“",
    rdquo: "”",
    middot: "·",
    times: "×",
    bull: "•",
    deg: "°",
    euro: "€",
    yen: "¥",
    pound: "£",
    cent: "¢"
  };
  function decode(text) {
    return String(text).replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);?/g, (whole, body) => {
      if (body[0] === "#") {
        const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
        return code > 0 && code <= 1114111 ? String.fromCodePoint(code) : "�";
      }
      const named = ENTITIES[body] ?? ENTITIES[body.toLowerCase()];
      return named === undefined ? whole : named;
    });
  }
  var collapse = (text) => text.replace(/\\s+/g, " ").trim();
  var ATTR = /([^\\s"'>\\/=]+)(?:\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+)))?/g;
  function parseAttrs(source) {
    const attrs = Object.create(null);
    ATTR.lastIndex = 0;
    let m;
    while (m = ATTR.exec(source)) {
      const name = m[1].toLowerCase();
      if (!(name in attrs))
        attrs[name] = decode(m[2] ?? m[3] ?? m[4] ?? "");
    }
    return attrs;
  }
  var TOKEN = /<!--[\\s\\S]*?(?:-->|$)|<![^>]*>?|<\\?[^>]*>?|<\\/([a-zA-Z][^\\s>\\/]*)[^>]*>?|<([a-zA-Z][^\\s>\\/]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  function parse(input) {
    const markup = String(input);
    const root = {
      tag: "#root",
      attrs: Object.create(null),
      children: [],
      parent: null,
      innerStart: 0,
      innerEnd: markup.length,
      outerStart: 0,
      outerEnd: markup.length
    };
    const stack = [root];
    const top = () => stack[stack.length - 1];
    const close = (index, at) => {
      for (let i = stack.length - 1;i >= index; i--) {
        const node = stack[i];
        if (node.innerEnd === undefined)
          node.innerEnd = at;
        if (node.outerEnd === undefined)
          node.outerEnd = at;
      }
      stack.length = index;
    };
    const openIndexOf = (tags) => {
      for (let i = stack.length - 1;i > 0; i--) {
        if (tags.includes(stack[i].tag))
          return i;
        if (stack[i].tag === "table" || stack[i].tag === "ul" || stack[i].tag === "ol")
          return -1;
      }
      return -1;
    };
    let last = 0;
    TOKEN.lastIndex = 0;
    let m;
    while (m = TOKEN.exec(markup)) {
      if (m.index > last)
        top().children.push(markup.slice(last, m.index));
      last = TOKEN.lastIndex;
      if (m[1] !== undefined) {
        const tag = m[1].toLowerCase();
        for (let i = stack.length - 1;i > 0; i--) {
          if (stack[i].tag === tag) {
            stack[i].innerEnd = m.index;
            stack[i].outerEnd = TOKEN.lastIndex;
            close(i, m.index);
            break;
          }
        }
      } else if (m[2] !== undefined) {
        const tag = m[2].toLowerCase();
        const implied = CLOSES[tag];
        if (implied) {
          const at = openIndexOf(implied);
          if (at > 0)
            close(at, m.index);
        }
        if (BLOCK.has(tag)) {
          const at = openIndexOf(["p"]);
          if (at > 0)
            close(at, m.index);
        }
        const attrSource = m[3] || "";
        const node = {
          tag,
          attrs: parseAttrs(attrSource),
          children: [],
          parent: top(),
          outerStart: m.index,
          innerStart: TOKEN.lastIndex
        };
        top().children.push(node);
        if (VOID.has(tag) || /\\/\\s*$/.test(attrSource)) {
          node.innerEnd = node.innerStart;
          node.outerEnd = node.innerStart;
        } else if (RAW.has(tag)) {
          const end = markup.toLowerCase().indexOf("</" + tag, TOKEN.lastIndex);
          const stop = end < 0 ? markup.length : end;
          if (stop > TOKEN.lastIndex)
            node.children.push(markup.slice(TOKEN.lastIndex, stop));
          node.innerEnd = stop;
          const gt = end < 0 ? markup.length : markup.indexOf(">", end);
          node.outerEnd = gt < 0 ? markup.length : gt + 1;
          TOKEN.lastIndex = last = node.outerEnd;
        } else
          stack.push(node);
      }
    }
    if (last < markup.length)
      top().children.push(markup.slice(last));
    close(1, markup.length);
    return { root, markup };
  }
  var COMPOUND = /^(\\*|[a-zA-Z][a-zA-Z0-9-]*)?((?:#[\\w-]+|\\.[\\w-]+|\\[\\s*[^\\]=~^$*\\s]+\\s*(?:[~^$*]?=\\s*(?:"[^"]*"|'[^']*'|[^\\]\\s]+)\\s*)?\\])*)$/;
  var PART = /#([\\w-]+)|\\.([\\w-]+)|\\[\\s*([^\\]=~^$*\\s]+)\\s*(?:([~^$*]?=)\\s*(?:"([^"]*)"|'([^']*)'|([^\\]\\s]+))\\s*)?\\]/g;
  function parseSelector(selector) {
    const alternatives = [];
    for (const alternative of String(selector).split(",")) {
      const steps = [];
      const words = alternative.trim().replace(/\\s*>\\s*/g, " > ").split(/\\s+/).filter(Boolean);
      let combinator = " ";
      for (const word of words) {
        if (word === ">") {
          combinator = ">";
          continue;
        }
        const m = COMPOUND.exec(word);
        if (!m)
          throw new Error("html: unsupported selector: " + selector);
        const tests = {
          tag: m[1] && m[1] !== "*" ? m[1].toLowerCase() : null,
          ids: [],
          classes: [],
          attrs: []
        };
        PART.lastIndex = 0;
        let p;
        while (p = PART.exec(m[2] || "")) {
          if (p[1])
            tests.ids.push(p[1]);
          else if (p[2])
            tests.classes.push(p[2]);
          else
            tests.attrs.push({
              name: p[3].toLowerCase(),
              op: p[4] || null,
              value: p[5] ?? p[6] ?? p[7] ?? ""
            });
        }
        steps.push({ combinator, tests });
        combinator = " ";
      }
      if (steps.length === 0)
        throw new Error("html: empty selector");
      alternatives.push(steps);
    }
    return alternatives;
  }
  function matchesCompound(node, tests) {
    if (tests.tag && node.tag !== tests.tag)
      return false;
    for (const id of tests.ids)
      if (node.attrs.id !== id)
        return false;
    if (tests.classes.length) {
      const classes = (node.attrs.class || "").split(/\\s+/);
      for (const c of tests.classes)
        if (!classes.includes(c))
          return false;
    }
    for (const a of tests.attrs) {
      const v = node.attrs[a.name];
      if (v === undefined)
        return false;
      if (a.op === "=" && v !== a.value)
        return false;
      if (a.op === "^=" && !v.startsWith(a.value))
        return false;
      if (a.op === "$=" && !v.endsWith(a.value))
        return false;
      if (a.op === "*=" && !v.includes(a.value))
        return false;
      if (a.op === "~=" && !v.split(/\\s+/).includes(a.value))
        return false;
    }
    return true;
  }
  function matchesFrom(node, steps, index, scope) {
    if (!matchesCompound(node, steps[index].tests))
      return false;
    if (index === 0)
      return true;
    const combinator = steps[index].combinator;
    for (let up = node.parent;up && up !== scope && up.tag !== "#root"; up = up.parent) {
      if (matchesFrom(up, steps, index - 1, scope))
        return true;
      if (combinator === ">")
        return false;
    }
    return false;
  }
  function textOf(node) {
    let out = "";
    const walk = (n) => {
      for (const child of n.children) {
        if (typeof child === "string") {
          if (n.tag !== "script" && n.tag !== "style")
            out += child;
        } else {
          if (BLOCK.has(child.tag) || child.tag === "br" || child.tag === "li" || child.tag === "tr")
            out += " ";
          walk(child);
        }
      }
    };
    walk(node);
    return collapse(decode(out));
  }
  function wrap(node, markup) {
    const element = {
      tag: node.tag,
      attrs: Object.assign({}, node.attrs),
      get text() {
        return textOf(node);
      },
      get html() {
        return markup.slice(node.innerStart, node.innerEnd);
      },
      get outerHtml() {
        return markup.slice(node.outerStart, node.outerEnd);
      },
      attr(name) {
        const v = node.attrs[String(name).toLowerCase()];
        return v === undefined ? null : v;
      },
      select(selector) {
        return selectIn(node, markup, selector);
      },
      selectOne(selector) {
        return selectIn(node, markup, selector)[0] ?? null;
      }
    };
    return Object.freeze(element);
  }
  function selectIn(scope, markup, selector) {
    const alternatives = parseSelector(selector);
    const found = [];
    const walk = (n) => {
      for (const child of n.children) {
        if (typeof child === "string")
          continue;
        if (alternatives.some((steps) => matchesFrom(child, steps, steps.length - 1, scope)))
          found.push(wrap(child, markup));
        walk(child);
      }
    };
    walk(scope);
    return found;
  }
  var html = Object.freeze({
    select(markup, selector) {
      const doc = parse(markup);
      return selectIn(doc.root, doc.markup, selector);
    },
    selectOne(markup, selector) {
      return html.select(markup, selector)[0] ?? null;
    },
    text(markup) {
      return textOf(parse(markup).root);
    },
    decode(text) {
      return decode(text);
    }
  });
  function guardMemory(G) {
    delete G.WebAssembly;
    delete G.SharedArrayBuffer;
    delete G.Atomics;
    const NativeArrayBuffer = G.ArrayBuffer;
    const ArrayBufferOfPlugins = {
      ArrayBuffer: function(length, options) {
        if (new.target === undefined)
          throw new TypeError("Constructor ArrayBuffer requires 'new'");
        if (options !== undefined && options !== null && Object(options).maxByteLength !== undefined)
          throw new RangeError("resizable ArrayBuffers are not available to plugins");
        return Reflect.construct(NativeArrayBuffer, [length], new.target);
      }
    }.ArrayBuffer;
    Object.defineProperty(ArrayBufferOfPlugins, "prototype", { value: NativeArrayBuffer.prototype });
    Object.defineProperty(ArrayBufferOfPlugins, "isView", {
      value: NativeArrayBuffer.isView,
      writable: true,
      configurable: true
    });
    Object.defineProperty(ArrayBufferOfPlugins, Symbol.species, {
      get() {
        return this;
      },
      configurable: true
    });
    Object.defineProperty(NativeArrayBuffer.prototype, "constructor", {
      value: ArrayBufferOfPlugins,
      writable: true,
      configurable: true
    });
    delete NativeArrayBuffer.prototype.resize;
    return ArrayBufferOfPlugins;
  }
  var G = globalThis;
  var host = G.__host;
  delete G.__host;
  var define = (name, value) => {
    Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false });
  };
  var ArrayBufferOfPlugins = guardMemory(G);
  var callHost = createCallHost();
  var URL = makeUrl(host);
  var sleep = (ms) => callHost(host.sleep, [Number(ms) || 0]);
  define("ArrayBuffer", ArrayBufferOfPlugins);
  define("TextEncoder", TextEncoder);
  define("TextDecoder", TextDecoder);
  define("atob", atob);
  define("btoa", btoa);
  define("URL", URL);
  define("URLSearchParams", URLSearchParams);
  define("Headers", Headers);
  define("console", makeConsole(host));
  define("fetch", makeFetch(host, callHost, URL));
  define("sleep", sleep);
  Object.defineProperty(G, "__makeCtx", { value: makeCtxBuilder(host, callHost), configurable: true });
  Object.defineProperty(G, "__drainLog", { value: () => host.drainLog(), configurable: true });
  define("html", html);
})();
`
