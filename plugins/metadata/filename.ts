// Built-in metadata plugin: tags and a clean title from the doujinshi naming convention
// `(Event) [Circle (Artist)] Title (Parody) [Language] [Extra] {Scanlator}`, with LANraragi's
// "Filename Parsing" tag names (event:, group:, artist:, series:, language:).

export function pluginInfo(): PluginInfo {
  return {
    name: 'Filename Parsing',
    author: 'Tankobun',
    description:
      'Derives tags from the archive filename: (Event) [Circle (Artist)] Title (Parody) ' +
      '[Language], and the title without them.',
    version: '1.0',
    type: 'metadata',
    parameters: [
      { name: 'save_title', type: 'bool', desc: 'Save the parsed title', default_value: true },
    ],
  }
}

export function execMetadata(ctx: PluginContext): MetadataResult | PluginError {
  const name = baseName(ctx.archive?.filename || ctx.archive?.title || '')
  if (!name) return { error: 'This archive has no filename to parse' }
  const parsed = parseName(name)
  const result: MetadataResult = { tags: parsed.tags.join(', ') }
  const saveTitle = ctx.args.save_title
  const off = saveTitle === false || saveTitle === 0 || saveTitle === '0' || saveTitle === 'false'
  if (!off && parsed.title) result.title = parsed.title
  return result
}

const ARCHIVE_EXTENSION =
  /\.(zip|cbz|rar|cbr|7z|cb7|tar|cbt|tgz|tar\.gz|tar\.bz2|tar\.xz|pdf|epub)$/i

/** The file's name without folders and archive extension; underscores read as spaces. */
function baseName(path: string): string {
  const file = path.split(/[\\/]/).pop() ?? ''
  return file.replace(ARCHIVE_EXTENSION, '').replace(/_/g, ' ').trim()
}

/** Language names as they appear in brackets, by the tag value they become. */
const LANGUAGES: Record<string, string> = {
  中国翻訳: 'chinese',
  中国語: 'chinese',
  英訳: 'english',
  英語: 'english',
  韓国翻訳: 'korean',
  韓国語: 'korean',
  日本語: 'japanese',
}
for (const name of [
  'english',
  'japanese',
  'chinese',
  'korean',
  'french',
  'german',
  'spanish',
  'italian',
  'russian',
  'portuguese',
  'polish',
  'thai',
  'vietnamese',
  'indonesian',
  'dutch',
  'hungarian',
  'czech',
  'turkish',
  'arabic',
  'ukrainian',
  'tagalog',
  'swedish',
  'finnish',
  'norwegian',
  'danish',
  'greek',
  'hebrew',
  'romanian',
  'malay',
  'esperanto',
])
  LANGUAGES[name] = name

/** Parodies that say "none". */
const NO_PARODY = new Set(['original', 'オリジナル', 'various'])

type Part = { kind: '(' | '[' | '{' | 'text'; value: string }

const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}' }

/** Top-level bracket groups and the text between them; nested brackets stay in their group. */
function splitParts(name: string): Part[] {
  const parts: Part[] = []
  let text = ''
  let i = 0
  while (i < name.length) {
    const open = name[i]!
    const close = CLOSING[open]
    const end = close ? matching(name, i, open, close) : -1
    if (end === -1) {
      text += open
      i++
      continue
    }
    if (text.trim()) parts.push({ kind: 'text', value: text.trim() })
    text = ''
    parts.push({ kind: open as Part['kind'], value: name.slice(i + 1, end).trim() })
    i = end + 1
  }
  if (text.trim()) parts.push({ kind: 'text', value: text.trim() })
  return parts
}

/** Index of the bracket closing the one at `from`, or -1 when it is never closed. */
function matching(s: string, from: number, open: string, close: string): number {
  let depth = 0
  for (let i = from; i < s.length; i++) {
    if (s[i] === open) depth++
    else if (s[i] === close && --depth === 0) return i
  }
  return -1
}

const splitList = (value: string) =>
  value
    .split(/[,、;]/)
    .map((s) => s.trim())
    .filter(Boolean)

function parseName(name: string): { tags: string[]; title: string } {
  const parts = splitParts(name)
  const tags: string[] = []
  const add = (namespace: string, value: string) => {
    const tag = `${namespace}:${value.replace(/,/g, ' ').replace(/\s+/g, ' ').trim()}`
    if (value.trim() && !tags.includes(tag)) tags.push(tag)
  }

  // Leading groups, before the title: (Event) then [Circle (Artist)] or [Artist].
  let i = 0
  if (parts[i]?.kind === '(') add('event', parts[i++]!.value)
  if (parts[i]?.kind === '[') {
    const credit = parts[i++]!.value
    const circle = /^(.*?)\s*\(([^()]+)\)$/.exec(credit)
    if (circle && circle[1]) {
      for (const group of splitList(circle[1])) add('group', group)
      for (const artist of splitList(circle[2]!)) add('artist', artist)
    } else for (const artist of splitList(credit)) add('artist', artist)
  }

  // The title runs to its last plain text; brackets inside it (`Title (Vol. 2) Part`) stay.
  let lastText = -1
  for (let j = i; j < parts.length; j++) if (parts[j]!.kind === 'text') lastText = j
  const titleParts = lastText === -1 ? [] : parts.slice(i, lastText + 1)
  const trailing = parts.slice(lastText === -1 ? i : lastText + 1)

  // After the title: (Parody), then [Language] and extras such as [Digital] or [Decensored].
  const parens = trailing.filter((p) => p.kind === '(')
  const parody = parens.pop()
  if (parody && !NO_PARODY.has(parody.value.toLowerCase()))
    for (const series of splitList(parody.value)) add('series', series)
  for (const part of trailing) {
    if (part.kind !== '[') continue
    const language = LANGUAGES[part.value.toLowerCase()]
    if (language) {
      add('language', language)
      break
    }
  }

  // Earlier parentheses after the title text belong to it (`Title (Vol. 2) (Parody)`).
  const title = [...titleParts, ...parens]
    .filter((p) => p.kind !== '{')
    .map((p) => (p.kind === 'text' ? p.value : `${p.kind}${p.value}${CLOSING[p.kind]}`))
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s\-|:]+|[\s\-|:]+$/g, '')
  return { tags, title: title || name }
}
