// Built-in metadata plugin: tags, title and summary from the archive's ComicInfo.xml (the
// ComicRack schema), read with a small XML reader since the sandbox has no DOM.

export function pluginInfo(): PluginInfo {
  return {
    name: 'ComicInfo',
    author: 'Tankobun',
    description:
      'Reads ComicInfo.xml inside the archive: series, writers, artists, publisher, genres, ' +
      'tags, language, characters, teams, locations, web link, age rating, volume and number, ' +
      'with the title and summary.',
    version: '1.1',
    type: 'metadata',
    parameters: [
      {
        name: 'writer_as_artist',
        type: 'bool',
        desc: 'Tag writers as artist: (LANraragi tags them as group:)',
        default_value: false,
      },
    ],
  }
}

export async function execMetadata(ctx: PluginContext): Promise<MetadataResult | PluginError> {
  const bytes = (await ctx.entry('ComicInfo.xml')) ?? (await ctx.entry('comicinfo.xml'))
  if (!bytes) return { error: 'No ComicInfo.xml file found in archive' }
  const fields = readComicInfo(new TextDecoder().decode(bytes))
  if (!fields) return { error: 'ComicInfo.xml has no ComicInfo element' }
  return toMetadata(fields, isOn(ctx.args.writer_as_artist))
}

/** A bool parameter as the settings may store it. */
const isOn = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true'

/** ComicInfo field -> tag namespace ('' for plain tags); values are comma-separated lists. */
const LIST_FIELDS: [field: string, namespace: string][] = [
  ['Series', 'series'],
  ['Penciller', 'artist'],
  ['Inker', 'artist'],
  ['Colorist', 'artist'],
  ['CoverArtist', 'artist'],
  ['Publisher', 'publisher'],
  ['Imprint', 'publisher'],
  ['Genre', ''],
  ['Tags', ''],
  ['Characters', 'character'],
  ['Teams', 'group'],
  ['Locations', 'location'],
  ['StoryArc', 'story_arc'],
]
/** Single values. */
const VALUE_FIELDS: [field: string, namespace: string][] = [
  ['Volume', 'volume'],
  ['Number', 'issue'],
  ['AgeRating', 'age_rating'],
]

function toMetadata(byName: Map<string, string>, writerAsArtist: boolean): MetadataResult {
  const field = (name: string) => byName.get(name.toLowerCase())
  const tags: string[] = []
  const add = (namespace: string, value: string) => {
    // A comma would split the tag in the comma-separated list the server stores.
    const clean = value.replace(/,/g, ' ').replace(/\s+/g, ' ').trim()
    if (!clean) return
    const tag = namespace ? `${namespace}:${clean}` : clean
    if (!tags.includes(tag)) tags.push(tag)
  }
  const list = (name: string, namespace: string) => {
    for (const item of (field(name) ?? '').split(/[,;]/)) add(namespace, item)
  }
  list('Writer', writerAsArtist ? 'artist' : 'group')
  for (const [name, namespace] of LIST_FIELDS) list(name, namespace)
  const language = languageName(field('LanguageISO') ?? '')
  if (language) add('language', language)
  for (const [name, namespace] of VALUE_FIELDS) {
    const value = field(name)?.trim()
    if (value && value !== 'Unknown' && value !== '-1') add(namespace, value)
  }
  // The schema allows several links in Web, separated by spaces.
  for (const url of (field('Web') ?? '').split(/[\s,]+/)) add('source', url)

  const result: MetadataResult = { tags: tags.join(', ') }
  const title = field('Title')?.replace(/\s+/g, ' ').trim()
  if (title) result.title = title
  const summary = field('Summary')?.trim()
  if (summary) result.summary = summary
  return result
}

// ---- Languages: ComicInfo's LanguageISO is a code, libraries tag the English name. ----

/**
 * ISO 639-1 codes, and the 639-2 (bibliographic and terminology) and 639-3 codes of the same
 * languages, to the lower-case English names LANraragi's plugins and most libraries tag
 * (`language:english`, not `language:en`). The languages comics are published or translated in.
 */
const LANGUAGES: [name: string, codes: string][] = [
  ['arabic', 'ar ara arb'],
  ['bengali', 'bn ben'],
  ['bulgarian', 'bg bul'],
  ['catalan', 'ca cat'],
  ['chinese', 'zh chi zho cmn yue'],
  ['croatian', 'hr hrv'],
  ['czech', 'cs cze ces'],
  ['danish', 'da dan'],
  ['dutch', 'nl dut nld'],
  ['english', 'en eng'],
  ['esperanto', 'eo epo'],
  ['estonian', 'et est'],
  ['filipino', 'fil tl tgl'],
  ['finnish', 'fi fin'],
  ['french', 'fr fre fra'],
  ['german', 'de ger deu'],
  ['greek', 'el gre ell'],
  ['hebrew', 'he heb iw'],
  ['hindi', 'hi hin'],
  ['hungarian', 'hu hun'],
  ['indonesian', 'id ind in'],
  ['irish', 'ga gle'],
  ['italian', 'it ita'],
  ['japanese', 'ja jpn'],
  ['korean', 'ko kor'],
  ['latin', 'la lat'],
  ['latvian', 'lv lav'],
  ['lithuanian', 'lt lit'],
  ['malay', 'ms may msa zsm'],
  ['mongolian', 'mn mon'],
  ['norwegian', 'no nor nb nob nn nno'],
  ['persian', 'fa per fas'],
  ['polish', 'pl pol'],
  ['portuguese', 'pt por'],
  ['romanian', 'ro rum ron'],
  ['russian', 'ru rus'],
  ['serbian', 'sr srp'],
  ['slovak', 'sk slo slk'],
  ['slovenian', 'sl slv'],
  ['spanish', 'es spa'],
  ['swedish', 'sv swe'],
  ['tamil', 'ta tam'],
  ['thai', 'th tha'],
  ['turkish', 'tr tur'],
  ['ukrainian', 'uk ukr'],
  ['urdu', 'ur urd'],
  ['vietnamese', 'vi vie'],
]
const LANGUAGE_BY_CODE = new Map(
  LANGUAGES.flatMap(([name, codes]) => codes.split(' ').map((code) => [code, name] as const)),
)

/**
 * The tag value for a LanguageISO field: the English name of a known code, with any region or
 * script dropped (`en-US`, `pt_BR`, `zh-Hant`); anything else as written, lower-cased (a name
 * such as `English` already, or a code this table lacks).
 */
function languageName(raw: string): string {
  const value = raw.trim().toLowerCase()
  const base = value.split(/[-_]/)[0] ?? ''
  return LANGUAGE_BY_CODE.get(value) ?? LANGUAGE_BY_CODE.get(base) ?? value
}

// ---- A small XML reader: enough for ComicInfo's flat element list. ----

/**
 * The text of each child element of the root <ComicInfo> (the first one of a name wins) by
 * lower-case name, or null when the document has no ComicInfo root. Names compare without
 * regard to case, since hand-written files are not always exact.
 */
function readComicInfo(xml: string): Map<string, string> | null {
  const fields = new Map<string, string>()
  // Element names from the root down; text is kept for depth-2 elements (children of the root).
  const stack: string[] = []
  let text = ''
  let sawRoot = false
  let at = 0
  while (at < xml.length) {
    const lt = xml.indexOf('<', at)
    if (lt === -1) break
    if (stack.length === 2) text += decodeEntities(xml.slice(at, lt))
    if (xml.startsWith('<!--', lt)) {
      at = skipPast(xml, lt, '-->')
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt)
      const stop = end === -1 ? xml.length : end
      if (stack.length === 2) text += xml.slice(lt + 9, stop)
      at = end === -1 ? xml.length : end + 3
    } else if (xml.startsWith('<?', lt)) {
      at = skipPast(xml, lt, '?>')
    } else if (xml.startsWith('<!', lt)) {
      at = skipPast(xml, lt, '>') // DOCTYPE: ComicInfo files carry no internal subset
    } else {
      const gt = tagEnd(xml, lt)
      const inner = xml.slice(lt + 1, gt)
      at = gt + 1
      if (inner.startsWith('/')) {
        if (stack.length === 2) {
          const name = stack[1]!.toLowerCase()
          if (!fields.has(name)) fields.set(name, text)
        }
        stack.pop()
        continue
      }
      const selfClosing = inner.endsWith('/')
      const name = inner.replace(/\/$/, '').trim().split(/\s/)[0] ?? ''
      if (stack.length === 0) {
        if (name.toLowerCase() !== 'comicinfo') return null
        sawRoot = true
      }
      if (selfClosing) continue
      stack.push(name)
      if (stack.length === 2) text = ''
    }
  }
  return sawRoot ? fields : null
}

function skipPast(xml: string, from: number, marker: string): number {
  const end = xml.indexOf(marker, from)
  return end === -1 ? xml.length : end + marker.length
}

/** The `>` closing a tag, skipping any inside quoted attribute values. */
function tagEnd(xml: string, from: number): number {
  let quote = ''
  for (let i = from + 1; i < xml.length; i++) {
    const c = xml[i]
    if (quote) {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '>') return i
  }
  return xml.length
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref] ?? whole
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}
