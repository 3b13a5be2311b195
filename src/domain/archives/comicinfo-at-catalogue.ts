// ComicInfo.xml read when an archive is first catalogued: its fields become namespaced tags (and
// the summary when the archive has none), so series, artists and the like are searchable without
// running the ComicInfo plugin. The field map and the small XML reader mirror the built-in plugin
// (plugins/metadata/comicinfo.ts, writers as group: as its default): plugins run in the sandbox
// and import nothing, so the two are kept alike by hand (test/http/comicinfo-at-catalogue.test.ts
// checks the tags of the same file both ways).
//
// Cheap by design: only inserted rows (never edits or a shown-again row), only ZIP and plain TAR
// files (one entry read from the directory already cached; RAR, 7z and compressed tar would need
// an extraction), one archive at a time, after the scan's transaction, through the archive writer.
// Snake_case kept: `new_tags` and `tags_added` are the metadata plugin API's answer, which
// applyMetadata takes and reports on (plugins/exec.ts).
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { AppError } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { applyMetadata } from './apply-metadata.ts'
import { toAbsolutePath } from './files.ts'
import { languageName } from './language-names.ts'

const log = createLogger('comicinfo')

/** ComicInfo files are a few KiB; a larger entry is not read. */
export const MAX_COMICINFO_BYTES = 1024 * 1024
const READABLE_EXTENSIONS = new Set(['zip', 'cbz', 'tar', 'cbt'])
const NAMES = ['ComicInfo.xml', 'comicinfo.xml']

/**
 * Reads ComicInfo.xml of every newly catalogued archive and merges its tags in. Answers a stop
 * that unsubscribes and waits for the archive being read (boot.ts stops it before the database).
 */
export function readComicInfoOfNewArchives(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
): () => Promise<void> {
  const queue: ArchiveRow[] = []
  let running: Promise<void> | null = null
  let stopped = false
  const drain = async () => {
    for (let row = queue.shift(); row && !stopped; row = queue.shift())
      await applyComicInfo(deps, row)
    running = null
  }
  const unsubscribe = deps.events.subscribe('archive.saved', (event) => {
    if (!event.created || event.row.unlinked || stopped) return
    if (!READABLE_EXTENSIONS.has(event.row.extension.toLowerCase())) return
    queue.push(event.row)
    // After the writer's transaction and its other subscribers: never inside the scan's write.
    running ??= Promise.resolve().then(drain)
  })
  return async () => {
    stopped = true
    unsubscribe()
    queue.length = 0
    await running
  }
}

/** Reads and applies one archive's ComicInfo.xml; a missing, damaged or odd file is skipped. */
export async function applyComicInfo(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  row: ArchiveRow,
): Promise<string[]> {
  try {
    const path = toAbsolutePath(deps.config.contentDir, row.path)
    let bytes: Uint8Array | null = null
    for (const name of NAMES) {
      bytes = await deps.reader.readEntry(path, name, MAX_COMICINFO_BYTES)
      if (bytes) break
    }
    if (!bytes) return []
    const fields = readComicInfo(new TextDecoder().decode(bytes))
    if (!fields) return []
    const { tags, summary } = comicInfoMetadata(fields)
    if (!tags && !summary) return []
    const applied = await applyMetadata(deps, row.id, {
      new_tags: tags,
      // The summary only fills an empty one: an upload's own summary stays.
      ...(summary && !row.summary.trim() ? { summary } : {}),
    })
    return applied.tags_added
  } catch (error) {
    // A file that vanished or changed, an entry past the size cap, a row deleted meanwhile: the
    // archive stays as catalogued (a background step must never end in an unhandled rejection).
    const message = error instanceof AppError ? error.message : String((error as Error)?.message)
    log.warn('ComicInfo.xml not applied', { id: row.id, error: message })
    return []
  }
}

/** ComicInfo field -> tag namespace ('' for plain tags); values are comma-separated lists. */
const LIST_FIELDS: [field: string, namespace: string][] = [
  ['Writer', 'group'],
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

/** The tags (comma-separated) and summary of a ComicInfo document's fields. */
export function comicInfoMetadata(byName: Map<string, string>): { tags: string; summary: string } {
  const field = (name: string) => byName.get(name.toLowerCase())
  const tags: string[] = []
  const add = (namespace: string, value: string) => {
    // A comma would split the tag in the comma-separated list the server stores.
    const clean = value.replace(/,/g, ' ').replace(/\s+/g, ' ').trim()
    if (!clean) return
    const tag = namespace ? `${namespace}:${clean}` : clean
    if (!tags.includes(tag)) tags.push(tag)
  }
  for (const [name, namespace] of LIST_FIELDS)
    for (const item of (field(name) ?? '').split(/[,;]/)) add(namespace, item)
  const language = languageName(field('LanguageISO') ?? '')
  if (language) add('language', language)
  for (const [name, namespace] of VALUE_FIELDS) {
    const value = field(name)?.trim()
    if (value && value !== 'Unknown' && value !== '-1') add(namespace, value)
  }
  // The schema allows several links in Web, separated by spaces.
  for (const url of (field('Web') ?? '').split(/[\s,]+/)) add('source', url)
  return { tags: tags.join(', '), summary: field('Summary')?.trim() ?? '' }
}

// ---- A small XML reader: enough for ComicInfo's flat element list (as the plugin's). ----

/**
 * The text of each child element of the root <ComicInfo> (the first one of a name wins) by
 * lower-case name, or null when the document has no ComicInfo root.
 */
export function readComicInfo(xml: string): Map<string, string> | null {
  const fields = new Map<string, string>()
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
      at = skipPast(xml, lt, '>')
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
