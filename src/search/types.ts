// The in-memory search index as the rest of the server sees it (implemented in src/search/), and
// what it is built from: documents handed in by a loader, so the engine never reads tables.
import type { Term } from './query.ts'
import type { SortSpec } from './sort.ts'

/** The fields of an archive the index reads (an archive row fits as it is). */
export type IndexArchive = {
  id: string
  title: string
  /** Stored tag string: comma-separated, namespace:value. */
  tags: string
  isnew: boolean
  progress: number
  pagecount: number
  lastreadtime: number
  /** A hidden (unlinked) archive leaves the index. */
  unlinked?: boolean
}

/** The fields of a Tankoubon the index reads; its figures come from its members. */
export type IndexTankoubon = {
  id: string
  name: string
  /** Its own tags only; the members' tags are the index's to add. */
  tags: string
  progress: number
  lastreadtime: number
  /** Member archive ids in reading order. */
  members: readonly string[]
}

/** Where the index reads its documents from (the database, in the server). */
export type IndexSource = {
  /** Every linked archive: the build. */
  listArchives(): Iterable<IndexArchive>
  /** Tankoubons with their members: all of them (the build), or those of `ids` that exist. */
  listTankoubons(ids?: readonly string[]): Iterable<IndexTankoubon>
}

/** One resolved search: filters already parsed, category and guest scope already looked up. */
export type IndexQuery = {
  terms: Term[]
  /** groupby_tanks: a Tankoubon replaces its members and matches on their tags too. */
  grouped: boolean
  /** Only Tankoubons (LANraragi's tankoubonsonly); implies grouped. */
  tanksOnly: boolean
  /** Members of a static category (archive or Tankoubon ids), or null for no restriction. */
  allowedIds: readonly string[] | null
  /** The guest-visitor scope, or null. */
  scopeIds: ReadonlySet<string> | null
  newonly: boolean
  untaggedonly: boolean
  hidecompleted: boolean
  sort: SortSpec
}

export type IndexResult = {
  /** How many archives and Tankoubons match (LANraragi's recordsFiltered). */
  count: number
  /** Size of the library view searched (LANraragi's recordsTotal). */
  total: number
  /** Ids of the matches in [start, end), in order; read it in the same tick as the query. */
  ids(start?: number, end?: number): string[]
  /**
   * All the ids in order as the inside of a JSON array (`"a","b"`) between `head` and `tail`
   * (ASCII), as bytes in a buffer the next answer reuses: send or copy them at once (a Response
   * made from them copies them).
   */
  idsJson(head?: string, tail?: string): Uint8Array
}

export type TagSuggestion = { tag: string; weight: number }

export type TagStat = { namespace: string; text: string; weight: number }

export type SearchIndex = {
  /** False until the first build finishes; search routes answer 204 meanwhile. */
  readonly ready: boolean
  /** Changes whenever a result could change (writes, clearCache): derived caches compare it. */
  readonly version: number
  /** Unix time in ms of the last write, clearCache or build (0 before any): cache_last_cleared. */
  readonly changedAt: number
  /** Builds everything from the source (start, rebuild-index job). */
  build(): Promise<void>
  /** Called in the same request as every archive write, so the next search sees it. */
  upsertArchive(archive: IndexArchive): void
  removeArchive(id: string): void
  /** Re-reads one Tankoubon (name, tags, members) from the source. */
  refreshTankoubon(id: string): void
  removeTankoubon(id: string): void
  /** Live archives in the index (Tankoubons not counted): /api/info's total_archives. */
  archiveCount(): number
  /** Drops cached results (DELETE /api/search/cache); never needed for correctness. */
  clearCache(): void
  /** Runs a search; `cacheKey` (all parameters, normalized) lets equal searches reuse a result. */
  query(q: IndexQuery, cacheKey?: string): IndexResult
  /** Every archive and Tankoubon matching the terms, grouping ignored (dynamic categories). */
  matchIds(terms: Term[]): string[]
  /** Member archive ids of a Tankoubon known to the index, in order. */
  membersOf(tankId: string): readonly string[]
  /** Archive ids without tags outside LANraragi's ignored namespaces, in title order. */
  untaggedIds(scopeIds: ReadonlySet<string> | null): string[]
  /** Tag prevalence: archives count once per tag, Tankoubons once per own tag. */
  tagStats(scopeIds: ReadonlySet<string> | null): TagStat[]
  /**
   * Up to `limit` tags for a typed prefix, typos tolerated (`narto` finds series:naruto), each
   * with its tagStats weight in the scope; tags of no archive in the scope are left out.
   */
  suggestTags(text: string, limit: number, scopeIds: ReadonlySet<string> | null): TagSuggestion[]
}
