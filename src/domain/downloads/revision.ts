// The older-revision check: a download plugin may report the versions of what it downloads
// (`version_history: [{source, posted_at}]`); when a version posted later than this one is already
// in the library (an archive tagged with its `source:`), the item asks before any byte moves.
// Snake_case kept: `posted_at` is the download plugin API's `version_history` entry.
import type { Deps } from '../../deps.ts'
import { foldCase, type TextTerm } from '../../search/query.ts'

export type Revision = { source: string; posted_at: string }

/** The plugin's version_history, entries without a source or a readable date dropped. */
export function parseVersionHistory(value: unknown): Revision[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((entry: unknown) => {
    const { source, posted_at } = (entry ?? {}) as Record<string, unknown>
    if (typeof source !== 'string' || !source.trim()) return []
    const at = typeof posted_at === 'number' ? new Date(posted_at).toISOString() : posted_at
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return []
    return [{ source: source.trim(), posted_at: at }]
  })
}

/** A source URL without scheme, `www.` and trailing slashes: how source tags are compared. */
function bareSource(source: string): string {
  return source
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/\/+$/, '')
    .toLowerCase()
}

/** Source tags are written with or without scheme and trailing slash: each spelling is tried. */
function sourceSpellings(source: string): string[] {
  const bare = bareSource(source)
  return [bare, `${bare}/`].flatMap((s) => [s, `https://${s}`, `http://${s}`])
}

/** Archives tagged `source:<source>` (any usual spelling), through the search index. */
export function archivesWithSource(deps: Pick<Deps, 'search'>, source: string): string[] {
  if (!deps.search.ready) return []
  const ids = new Set<string>()
  for (const spelling of sourceSpellings(source)) {
    const term: TextTerm = {
      kind: 'text',
      negated: false,
      exact: true,
      quoted: false,
      namespaced: true,
      text: foldCase(`source:${spelling}`),
      wildcard: false,
    }
    for (const id of deps.search.matchIds([term])) if (!id.startsWith('TANK_')) ids.add(id)
  }
  return [...ids]
}

/**
 * The catalogued archive of a version posted after the one `url` downloads, or null. The
 * download's own version is the history entry whose source is its URL, else the first entry.
 */
export function findNewerRevision(
  deps: Pick<Deps, 'search'>,
  url: string,
  history: Revision[],
): string | null {
  if (history.length === 0) return null
  const own = history.find((entry) => bareSource(entry.source) === bareSource(url)) ?? history[0]!
  const ownAt = Date.parse(own.posted_at)
  const newer = history
    .filter((entry) => Date.parse(entry.posted_at) > ownAt)
    .sort((a, b) => Date.parse(b.posted_at) - Date.parse(a.posted_at))
  for (const entry of newer) {
    const [id] = archivesWithSource(deps, entry.source)
    if (id) return id
  }
  return null
}
