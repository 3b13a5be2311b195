// A small, forgiving reader of a web page's markup for the wizard (no DOM on the server; the
// sandbox's `html` helper is guest code): the title, headings, meta tags, links and forms with
// their fields. Enough for a model to see how a page is built, never a renderer.
// Snake_case kept: the page summary (`has_password`) is what the model is shown (JSON in the
// prompt) and what analyze-login and lookup answer.

export type FormField = {
  name: string
  /** `text`, `password`, `hidden`, `email`, `checkbox`, `select`, `textarea`, `submit`... */
  type: string
  /** Only for hidden fields and submit buttons (a CSRF token, a button value), never typed input. */
  value?: string
  required: boolean
}
export type PageForm = {
  /** The absolute URL the form posts to (the page's own when it names none). */
  action: string
  method: 'GET' | 'POST'
  id: string | null
  fields: FormField[]
  has_password: boolean
}
export type PageLink = { href: string; text: string }
export type PageHeading = { tag: string; selector: string; text: string }
export type PageSummary = {
  title: string | null
  headings: PageHeading[]
  meta: Record<string, string>
  links: PageLink[]
  forms: PageForm[]
}

const MAX_LINKS = 60
const MAX_HEADINGS = 20
const MAX_FIELDS = 50
const MAX_TEXT = 200

/** Elements read for their text at once (unclosed ones pile up in bad markup), and their text. */
const MAX_OPEN = 20
const MAX_OPEN_TEXT = 2_000
/** Their content is not markup: skipped to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'noscript'])
const TAG_NAME = /^<(\/?)([a-zA-Z][\w:-]*)/
const ATTR = /([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}

function attrsOf(raw: string): Record<string, string> {
  const attrs: Record<string, string> = {}
  for (const [, name, value] of raw.matchAll(ATTR)) {
    const key = name!.toLowerCase()
    if (key in attrs) continue
    attrs[key] = value === undefined ? '' : decode(value.replace(/^["']|["']$/g, ''))
  }
  return attrs
}

const clip = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat
}

function absolute(href: string, base: string): string | null {
  try {
    return new URL(href, base).href
  } catch {
    return null
  }
}

/** `h1#id`, else `h1.first-class`, else the tag: a selector the sandbox's html helper takes. */
function selectorOf(tag: string, attrs: Record<string, string>): string {
  if (attrs.id && /^[\w-]+$/.test(attrs.id)) return `${tag}#${attrs.id}`
  const first = attrs.class?.trim().split(/\s+/)[0]
  if (first && /^[\w-]+$/.test(first)) return `${tag}.${first}`
  return tag
}

type Open = { tag: string; attrs: Record<string, string>; text: string }

/** Reads one page; `baseUrl` resolves relative links and form actions. */
export function readPage(markup: string, baseUrl: string): PageSummary {
  const page: PageSummary = { title: null, headings: [], meta: {}, links: [], forms: [] }
  // Elements whose text is wanted, innermost last; text goes to every open one.
  const open: Open[] = []
  let form: PageForm | null = null
  const close = (tag: string) => {
    const at = open.findLastIndex((element) => element.tag === tag)
    if (at < 0) return
    const [element] = open.splice(at, 1)
    const text = clip(decode(element!.text))
    if (tag === 'title' && page.title === null) page.title = text
    else if (tag === 'a' && page.links.length < MAX_LINKS) {
      const href = absolute(element!.attrs.href ?? '', baseUrl)
      if (href && /^https?:/.test(href)) page.links.push({ href, text })
    } else if (/^h[1-3]$/.test(tag) && page.headings.length < MAX_HEADINGS && text)
      page.headings.push({ tag, selector: selectorOf(tag, element!.attrs), text })
  }
  const text = (between: string) => {
    for (const element of open)
      if (element.text.length < MAX_OPEN_TEXT) element.text += between.slice(0, MAX_OPEN_TEXT)
  }
  // One pass that never looks back, so hostile markup (unclosed comments, quotes or scripts)
  // costs time in proportion to its length.
  let at = 0
  while (at < markup.length) {
    const lt = markup.indexOf('<', at)
    if (lt < 0) {
      text(markup.slice(at))
      break
    }
    text(markup.slice(at, lt))
    if (markup.startsWith('<!--', lt)) {
      const end = markup.indexOf('-->', lt + 4)
      at = end < 0 ? markup.length : end + 3
      continue
    }
    const name = TAG_NAME.exec(markup.slice(lt, lt + 64))
    if (!name) {
      text('<')
      at = lt + 1
      continue
    }
    let end = lt + name[0].length
    for (let quote = ''; end < markup.length; end++) {
      const c = markup[end]
      if (quote) {
        if (c === quote) quote = ''
      } else if (c === '"' || c === "'") quote = c
      else if (c === '>') break
    }
    // A tag never closed: the rest of the page is inside it.
    if (end >= markup.length) break
    at = end + 1
    const slash = name[1]
    const tag = name[2]!.toLowerCase()
    const rawAttrs = markup.slice(lt + name[0].length, end)
    if (slash) {
      if (tag === 'form') form = null
      else close(tag)
      continue
    }
    if (RAW_TEXT.has(tag)) {
      const closing = new RegExp(`</${tag}`, 'gi')
      closing.lastIndex = at
      const found = closing.exec(markup)
      const after = found ? markup.indexOf('>', found.index) : -1
      at = after < 0 ? markup.length : after + 1
      continue
    }
    const attrs = attrsOf(rawAttrs)
    if (tag === 'title' || tag === 'a' || /^h[1-3]$/.test(tag)) {
      if (open.length >= MAX_OPEN) open.shift()
      open.push({ tag, attrs, text: '' })
    } else if (tag === 'meta') {
      const key = attrs.property ?? attrs.name
      if (key && attrs.content !== undefined && Object.keys(page.meta).length < 40)
        page.meta[key.toLowerCase()] = clip(attrs.content)
    } else if (tag === 'form') {
      form = {
        action: absolute(attrs.action || baseUrl, baseUrl) ?? baseUrl,
        method: attrs.method?.toUpperCase() === 'POST' ? 'POST' : 'GET',
        id: attrs.id ?? attrs.name ?? null,
        fields: [],
        has_password: false,
      }
      page.forms.push(form)
    } else if (
      form &&
      (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button')
    ) {
      const type =
        tag === 'input'
          ? (attrs.type ?? 'text').toLowerCase()
          : tag === 'button'
            ? (attrs.type ?? 'submit').toLowerCase()
            : tag
      if (type === 'password') form.has_password = true
      if (!attrs.name || form.fields.length >= MAX_FIELDS) continue
      const keepsValue = type === 'hidden' || type === 'submit'
      form.fields.push({
        name: attrs.name,
        type,
        ...(keepsValue && attrs.value !== undefined ? { value: clip(attrs.value) } : {}),
        required: 'required' in attrs,
      })
    }
  }
  return page
}

/** The names (and scope) of the cookies a response sets; their values stay out of any prompt. */
export function cookiesSet(
  headers: Headers,
): { name: string; domain: string | null; path: string | null }[] {
  return headers.getSetCookie().map((line) => {
    const [pair = '', ...attributes] = line.split(';')
    const attr = (key: string) =>
      attributes
        .map((part) => part.trim())
        .find((part) => part.toLowerCase().startsWith(`${key}=`))
        ?.slice(key.length + 1) ?? null
    return { name: pair.split('=')[0]!.trim(), domain: attr('domain'), path: attr('path') }
  })
}
