// The plugin SDK: the hooks a plugin file exports, the ctx they get and the only globals the
// sandbox gives them. Declared as globals (this file has no import or export), so a plugin file
// under plugins/ is checked against it by plugins/tsconfig.json with no import; a plugin written
// elsewhere adds `/// <reference path="sdk.d.ts" />` next to a copy of this file.

/** One setting a user fills in for the plugin; its value reaches `ctx.args[name]`. */
type PluginParameter = {
  name: string
  type: 'string' | 'int' | 'bool'
  desc: string
  default_value?: string | number | boolean
  /**
   * A password, cookie or key: the server never answers its saved value (only whether one is
   * set), and the plugins page shows a password field. `ctx.args[name]` still holds it.
   */
  secret?: boolean
}

type PluginType = 'metadata' | 'login' | 'download' | 'script'

/** What `pluginInfo()` answers. */
type PluginInfo = {
  name: string
  /**
   * Where the file lies (`metadata/comicinfo`, `custom/metadata/<file name>`): leave it out. An
   * upload declaring another namespace is refused.
   */
  namespace?: string
  author: string
  description: string
  version: string
  type: PluginType
  /** A data: URL of a small image. */
  icon?: string
  parameters?: PluginParameter[]
  /** Namespace of the login plugin whose cookies and headers this plugin's fetches carry. */
  login_from?: string
  /** What the one-shot argument means ("E-Hentai gallery URL"); absent: the plugin takes none. */
  oneshot_arg?: string
  /** Download plugins: the URLs they handle, as a regular expression source. */
  url_regex?: string
  /** The only hosts `fetch` may reach: exact names or `*.example.com` (its subdomains). */
  hosts?: string[]
}

/** The archive a metadata plugin runs for (tags as one comma-separated string). */
type PluginArchive = {
  arcid: string
  title: string
  tags: string
  summary: string
  filename: string
  pagecount: number
}

/** An archive as `ctx.library` lists it. */
type LibraryArchive = {
  arcid: string
  title: string
  /** Comma-separated tags. */
  tags: string
  filename: string
  /** The folder holding the file, relative to the content folder ('' at its top), '/'-separated. */
  folder: string
  pagecount: number
}

type LibraryCategory = {
  id: string
  name: string
  /** The filter of a dynamic category; '' for a static one. */
  search: string
  /** Members of a static category. */
  archives: string[]
  /** Favorites (the bookmark button's category): scripts may not add to it or delete it. */
  protected: boolean
}

/**
 * Script plugins only: the library, through the host (every argument is checked there; a refused
 * call rejects with its reason). Paged: at most 1,000 archives an answer.
 */
type PluginLibrary = {
  /** The server's search syntax (docs/search.md), ungrouped, in title order. */
  search(
    filter: string,
    options?: { start?: number; limit?: number },
  ): Promise<{ total: number; archives: LibraryArchive[] }>
  /** Every archive, page by page: pass `next` back as `after` until it is null. */
  archives(options?: {
    after?: string
    limit?: number
  }): Promise<{ archives: LibraryArchive[]; next: string | null }>
  categories(): Promise<LibraryCategory[]>
  /** Creates a static category; answers its id. */
  createCategory(name: string): Promise<string>
  /** Adds archives to a static category (at most 10,000 ids a call); answers how many were new. */
  addToCategory(categoryId: string, archiveIds: string[]): Promise<number>
  /** Deletes a category (never an archive). */
  deleteCategory(categoryId: string): Promise<true>
  // Writes per run: at most 200 categories created, 200 deleted and 100,000 archive ids added;
  // past that a call rejects with the quota's name. A `protected` category is refused.
}

/** What every hook gets. */
type PluginContext = {
  archive?: PluginArchive
  /** The plugin's parameters by name, as the user set them (or their defaults). */
  args: Record<string, unknown>
  /** The one-shot argument of this run, or null. */
  oneshot: string | null
  /** Download plugins: the URL to handle. */
  url?: string
  /** The bytes of an entry of the run's archive (`ComicInfo.xml`), or null when it has none. */
  entry(name: string): Promise<Uint8Array | null>
  /** Script plugins only (absent for the other types). */
  library?: PluginLibrary
}

/** Any hook may answer this (or throw): the run fails with the message. */
type PluginError = { error: string }

/** Tags as one comma-separated string of `namespace:value` or plain tags. */
type MetadataResult = { tags?: string; title?: string; summary?: string }
type LoginResult = {
  cookies?: { name: string; value: string; domain: string }[]
  headers?: Record<string, string>
}
type DownloadResult = {
  downloads: {
    url: string
    method?: string
    headers?: Record<string, string>
    filename_hint?: string
  }[]
  version_history?: { source: string; posted_at: string }[]
}
type ScriptResult = { data: unknown }

type Awaitable<T> = T | Promise<T>

/** The hook signatures, for `export const execMetadata: ExecMetadata = ...`. */
type PluginInfoHook = () => PluginInfo
type ExecMetadata = (ctx: PluginContext) => Awaitable<MetadataResult | PluginError>
type ExecLogin = (ctx: PluginContext) => Awaitable<LoginResult | PluginError>
type ExecDownload = (ctx: PluginContext) => Awaitable<DownloadResult | PluginError>
type RunScript = (ctx: PluginContext) => Awaitable<ScriptResult | PluginError>

// ---- Globals: the sandbox has the JavaScript language plus exactly these. ----

type SandboxHeadersInit = Record<string, string> | Iterable<[string, string]>

type SandboxFetchInit = {
  method?: string
  headers?: SandboxHeadersInit
  body?: string | Uint8Array | ArrayBuffer | ArrayBufferView | URLSearchParams | null
}

/** Response headers; names are matched without regard to case. */
interface SandboxHeaders extends Iterable<[string, string]> {
  /** All values of the name joined with ", ", or null. */
  get(name: string): string | null
  getSetCookie(): string[]
  has(name: string): boolean
  forEach(fn: (value: string, name: string, headers: SandboxHeaders) => void): void
  entries(): IterableIterator<[string, string]>
  keys(): IterableIterator<string>
  values(): IterableIterator<string>
}

/** The body is already read in full by the host; each reader may be called once. */
interface SandboxResponse {
  readonly ok: boolean
  readonly status: number
  /** The final URL, after redirects. */
  readonly url: string
  readonly headers: SandboxHeaders
  text(): Promise<string>
  json(): Promise<any>
  bytes(): Promise<Uint8Array>
  arrayBuffer(): Promise<ArrayBuffer>
}

/** Through the server's outbound client: only `pluginInfo().hosts`, never private addresses. */
declare function fetch(input: string | URL, init?: SandboxFetchInit): Promise<SandboxResponse>

/** Waits on the host's clock (at most 10 s a call); there are no timers. */
declare function sleep(ms: number): Promise<void>

/** An element found by `html.select`: its tag, attributes, text and markup. */
interface HtmlElement {
  /** Lower-case tag name. */
  readonly tag: string
  /** Attribute values, entities decoded; names lower-case. */
  readonly attrs: Readonly<Record<string, string>>
  /** Visible text of the element, entities decoded, white space collapsed. */
  readonly text: string
  /** The markup between its start and end tags. */
  readonly html: string
  /** The markup of the element itself, tags included. */
  readonly outerHtml: string
  attr(name: string): string | null
  /** Elements below this one matching the selector. */
  select(selector: string): HtmlElement[]
  selectOne(selector: string): HtmlElement | null
}

/**
 * A DOM-free HTML reader (nothing runs, nothing is fetched). Selectors: tag, #id, .class, [attr],
 * [attr=v], [attr^=v], [attr$=v], [attr*=v], [attr~=v], descendant and `>` combinators, comma
 * lists; anything else throws.
 */
declare const html: {
  select(markup: string, selector: string): HtmlElement[]
  selectOne(markup: string, selector: string): HtmlElement | null
  /** Visible text: tags, scripts and styles dropped, entities decoded, white space collapsed. */
  text(markup: string): string
  /** Entities decoded (named, decimal and hex). */
  decode(text: string): string
}

/** Lines of the run's log. */
declare const console: {
  log(...args: unknown[]): void
  info(...args: unknown[]): void
  debug(...args: unknown[]): void
  warn(...args: unknown[]): void
  error(...args: unknown[]): void
}

declare class URLSearchParams implements Iterable<[string, string]> {
  constructor(init?: string | URLSearchParams | Record<string, string> | Iterable<[string, string]>)
  readonly size: number
  append(name: string, value: string): void
  delete(name: string): void
  get(name: string): string | null
  getAll(name: string): string[]
  has(name: string): boolean
  set(name: string, value: string): void
  sort(): void
  forEach(fn: (value: string, name: string, params: URLSearchParams) => void): void
  entries(): IterableIterator<[string, string]>
  keys(): IterableIterator<string>
  values(): IterableIterator<string>
  [Symbol.iterator](): IterableIterator<[string, string]>
  toString(): string
}

/** Parsed by the host's WHATWG URL parser; setters and `searchParams` stay in step. */
declare class URL {
  constructor(input: string | URL, base?: string | URL)
  static canParse(input: string | URL, base?: string | URL): boolean
  href: string
  readonly origin: string
  protocol: string
  username: string
  password: string
  host: string
  hostname: string
  port: string
  pathname: string
  search: string
  hash: string
  readonly searchParams: URLSearchParams
  toString(): string
  toJSON(): string
}

/** UTF-8 only. */
declare class TextEncoder {
  readonly encoding: 'utf-8'
  encode(input?: string): Uint8Array
}

/** UTF-8 only (a leading byte-order mark is dropped); invalid bytes become U+FFFD. */
declare class TextDecoder {
  constructor(label?: 'utf-8' | 'utf8')
  readonly encoding: 'utf-8'
  decode(input?: Uint8Array | ArrayBuffer | ArrayBufferView): string
}

/** Latin-1 strings, as in browsers. */
declare function atob(data: string): string
declare function btoa(data: string): string
