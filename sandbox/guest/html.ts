// The `html` global of every plugin context: a DOM-free HTML reader for scraping plugins. It parses
// forgivingly into a small tree (no scripts run, nothing fetched) and answers simple CSS selectors:
// tag, #id, .class, [attr], [attr=v], [attr^=v], [attr$=v], [attr*=v], [attr~=v], the descendant
// and child (>) combinators, and comma lists. Pure guest code: it runs under the isolate's own
// memory limit and timeouts, and reaches nothing of the host.

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])
const RAW = new Set(['script', 'style', 'textarea', 'title', 'xmp'])
// Opening one of these closes an open element of the listed tags first (HTML's implied ends).
const CLOSES: Record<string, string[]> = {
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  tr: ['tr', 'td', 'th'],
  td: ['td', 'th'],
  th: ['td', 'th'],
  option: ['option'],
  thead: ['tbody', 'tfoot'],
  tbody: ['thead', 'tbody', 'tfoot'],
  tfoot: ['thead', 'tbody'],
}
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'div',
  'dl',
  'fieldset',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
])
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '\u2026',
  mdash: '\u2014',
  ndash: '\u2013',
  laquo: '\u00ab',
  raquo: '\u00bb',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  middot: '\u00b7',
  times: '\u00d7',
  bull: '\u2022',
  deg: '\u00b0',
  euro: '\u20ac',
  yen: '\u00a5',
  pound: '\u00a3',
  cent: '\u00a2',
}

function decode(text: unknown): string {
  return String(text).replace(
    /&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);?/g,
    (whole, body: string) => {
      if (body[0] === '#') {
        const code =
          body[1] === 'x' || body[1] === 'X'
            ? parseInt(body.slice(2), 16)
            : parseInt(body.slice(1), 10)
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd'
      }
      const named = ENTITIES[body] ?? ENTITIES[body.toLowerCase()]
      return named === undefined ? whole : named
    },
  )
}
const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim()

type Attrs = Record<string, string>

const ATTR = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g
function parseAttrs(source: string): Attrs {
  const attrs: Attrs = Object.create(null)
  ATTR.lastIndex = 0
  let m
  while ((m = ATTR.exec(source))) {
    const name = m[1]!.toLowerCase()
    if (!(name in attrs)) attrs[name] = decode(m[2] ?? m[3] ?? m[4] ?? '')
  }
  return attrs
}

/** An element of the parsed tree: offsets into the markup of its inner and outer HTML. */
type Node = {
  tag: string
  attrs: Attrs
  children: (Node | string)[]
  parent: Node | null
  outerStart: number
  innerStart: number
  innerEnd?: number
  outerEnd?: number
}

const TOKEN =
  /<!--[\s\S]*?(?:-->|$)|<![^>]*>?|<\?[^>]*>?|<\/([a-zA-Z][^\s>\/]*)[^>]*>?|<([a-zA-Z][^\s>\/]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g

function parse(input: unknown): { root: Node; markup: string } {
  const markup = String(input)
  const root: Node = {
    tag: '#root',
    attrs: Object.create(null),
    children: [],
    parent: null,
    innerStart: 0,
    innerEnd: markup.length,
    outerStart: 0,
    outerEnd: markup.length,
  }
  const stack: Node[] = [root]
  const top = (): Node => stack[stack.length - 1]!
  const close = (index: number, at: number): void => {
    for (let i = stack.length - 1; i >= index; i--) {
      const node = stack[i]!
      if (node.innerEnd === undefined) node.innerEnd = at
      if (node.outerEnd === undefined) node.outerEnd = at
    }
    stack.length = index
  }
  const openIndexOf = (tags: string[]): number => {
    for (let i = stack.length - 1; i > 0; i--) {
      if (tags.includes(stack[i]!.tag)) return i
      if (stack[i]!.tag === 'table' || stack[i]!.tag === 'ul' || stack[i]!.tag === 'ol') return -1
    }
    return -1
  }
  let last = 0
  TOKEN.lastIndex = 0
  let m
  while ((m = TOKEN.exec(markup))) {
    if (m.index > last) top().children.push(markup.slice(last, m.index))
    last = TOKEN.lastIndex
    if (m[1] !== undefined) {
      const tag = m[1].toLowerCase()
      for (let i = stack.length - 1; i > 0; i--) {
        if (stack[i]!.tag === tag) {
          stack[i]!.innerEnd = m.index
          stack[i]!.outerEnd = TOKEN.lastIndex
          close(i, m.index)
          break
        }
      }
    } else if (m[2] !== undefined) {
      const tag = m[2].toLowerCase()
      const implied = CLOSES[tag]
      if (implied) {
        const at = openIndexOf(implied)
        if (at > 0) close(at, m.index)
      }
      if (BLOCK.has(tag)) {
        const at = openIndexOf(['p'])
        if (at > 0) close(at, m.index)
      }
      const attrSource = m[3] || ''
      const node: Node = {
        tag,
        attrs: parseAttrs(attrSource),
        children: [],
        parent: top(),
        outerStart: m.index,
        innerStart: TOKEN.lastIndex,
      }
      top().children.push(node)
      if (VOID.has(tag) || /\/\s*$/.test(attrSource)) {
        node.innerEnd = node.innerStart
        node.outerEnd = node.innerStart
      } else if (RAW.has(tag)) {
        const end = markup.toLowerCase().indexOf('</' + tag, TOKEN.lastIndex)
        const stop = end < 0 ? markup.length : end
        if (stop > TOKEN.lastIndex) node.children.push(markup.slice(TOKEN.lastIndex, stop))
        node.innerEnd = stop
        const gt = end < 0 ? markup.length : markup.indexOf('>', end)
        node.outerEnd = gt < 0 ? markup.length : gt + 1
        TOKEN.lastIndex = last = node.outerEnd
      } else stack.push(node)
    }
  }
  if (last < markup.length) top().children.push(markup.slice(last))
  close(1, markup.length)
  return { root, markup }
}

// Selectors: a list of alternatives, each a list of compounds joined by ' ' or '>'.
type AttrTest = { name: string; op: string | null; value: string }
type Compound = { tag: string | null; ids: string[]; classes: string[]; attrs: AttrTest[] }
type Step = { combinator: string; tests: Compound }

const COMPOUND =
  /^(\*|[a-zA-Z][a-zA-Z0-9-]*)?((?:#[\w-]+|\.[\w-]+|\[\s*[^\]=~^$*\s]+\s*(?:[~^$*]?=\s*(?:"[^"]*"|'[^']*'|[^\]\s]+)\s*)?\])*)$/
const PART =
  /#([\w-]+)|\.([\w-]+)|\[\s*([^\]=~^$*\s]+)\s*(?:([~^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]+))\s*)?\]/g
function parseSelector(selector: unknown): Step[][] {
  const alternatives: Step[][] = []
  for (const alternative of String(selector).split(',')) {
    const steps: Step[] = []
    const words = alternative
      .trim()
      .replace(/\s*>\s*/g, ' > ')
      .split(/\s+/)
      .filter(Boolean)
    let combinator = ' '
    for (const word of words) {
      if (word === '>') {
        combinator = '>'
        continue
      }
      const m = COMPOUND.exec(word)
      if (!m) throw new Error('html: unsupported selector: ' + selector)
      const tests: Compound = {
        tag: m[1] && m[1] !== '*' ? m[1].toLowerCase() : null,
        ids: [],
        classes: [],
        attrs: [],
      }
      PART.lastIndex = 0
      let p
      while ((p = PART.exec(m[2] || ''))) {
        if (p[1]) tests.ids.push(p[1])
        else if (p[2]) tests.classes.push(p[2])
        else
          tests.attrs.push({
            name: p[3]!.toLowerCase(),
            op: p[4] || null,
            value: p[5] ?? p[6] ?? p[7] ?? '',
          })
      }
      steps.push({ combinator, tests })
      combinator = ' '
    }
    if (steps.length === 0) throw new Error('html: empty selector')
    alternatives.push(steps)
  }
  return alternatives
}
function matchesCompound(node: Node, tests: Compound): boolean {
  if (tests.tag && node.tag !== tests.tag) return false
  for (const id of tests.ids) if (node.attrs.id !== id) return false
  if (tests.classes.length) {
    const classes = (node.attrs.class || '').split(/\s+/)
    for (const c of tests.classes) if (!classes.includes(c)) return false
  }
  for (const a of tests.attrs) {
    const v = node.attrs[a.name]
    if (v === undefined) return false
    if (a.op === '=' && v !== a.value) return false
    if (a.op === '^=' && !v.startsWith(a.value)) return false
    if (a.op === '$=' && !v.endsWith(a.value)) return false
    if (a.op === '*=' && !v.includes(a.value)) return false
    if (a.op === '~=' && !v.split(/\s+/).includes(a.value)) return false
  }
  return true
}
function matchesFrom(node: Node, steps: Step[], index: number, scope: Node): boolean {
  if (!matchesCompound(node, steps[index]!.tests)) return false
  if (index === 0) return true
  const combinator = steps[index]!.combinator
  for (let up = node.parent; up && up !== scope && up.tag !== '#root'; up = up.parent) {
    if (matchesFrom(up, steps, index - 1, scope)) return true
    if (combinator === '>') return false
  }
  return false
}

function textOf(node: Node): string {
  let out = ''
  const walk = (n: Node): void => {
    for (const child of n.children) {
      if (typeof child === 'string') {
        if (n.tag !== 'script' && n.tag !== 'style') out += child
      } else {
        if (BLOCK.has(child.tag) || child.tag === 'br' || child.tag === 'li' || child.tag === 'tr')
          out += ' '
        walk(child)
      }
    }
  }
  walk(node)
  return collapse(decode(out))
}

/** An element as plugins see it (plugins/sdk.d.ts: HtmlElement). */
type Element = {
  readonly tag: string
  readonly attrs: Attrs
  readonly text: string
  readonly html: string
  readonly outerHtml: string
  attr(name: unknown): string | null
  select(selector: unknown): Element[]
  selectOne(selector: unknown): Element | null
}

function wrap(node: Node, markup: string): Element {
  const element: Element = {
    tag: node.tag,
    attrs: Object.assign({}, node.attrs),
    get text() {
      return textOf(node)
    },
    get html() {
      return markup.slice(node.innerStart, node.innerEnd)
    },
    get outerHtml() {
      return markup.slice(node.outerStart, node.outerEnd)
    },
    attr(name) {
      const v = node.attrs[String(name).toLowerCase()]
      return v === undefined ? null : v
    },
    select(selector) {
      return selectIn(node, markup, selector)
    },
    selectOne(selector) {
      return selectIn(node, markup, selector)[0] ?? null
    },
  }
  return Object.freeze(element)
}

function selectIn(scope: Node, markup: string, selector: unknown): Element[] {
  const alternatives = parseSelector(selector)
  const found: Element[] = []
  const walk = (n: Node): void => {
    for (const child of n.children) {
      if (typeof child === 'string') continue
      if (alternatives.some((steps) => matchesFrom(child, steps, steps.length - 1, scope)))
        found.push(wrap(child, markup))
      walk(child)
    }
  }
  walk(scope)
  return found
}

export const html = Object.freeze({
  /** Every element matching the selector, in document order. */
  select(markup: unknown, selector: unknown): Element[] {
    const doc = parse(markup)
    return selectIn(doc.root, doc.markup, selector)
  },
  /** The first matching element, or null. */
  selectOne(markup: unknown, selector: unknown): Element | null {
    return html.select(markup, selector)[0] ?? null
  },
  /** The visible text: tags dropped (scripts and styles with their content), entities decoded, white space collapsed. */
  text(markup: unknown): string {
    return textOf(parse(markup).root)
  },
  /** Entities decoded (&amp; &#39; &#x27; and the common named ones). */
  decode(text: unknown): string {
    return decode(text)
  },
})
