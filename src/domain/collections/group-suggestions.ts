// Tankoubon grouping suggestions (docs/llm.md): archives that look like one series. Candidates are
// found without the model, by normalized title (volume and chapter numbers, brackets and
// punctuation stripped) within one artist or circle, and by a shared series: tag; overlapping
// candidates merge. The model then confirms each candidate and names it. A suggestion's key is a
// hash of its sorted archive ids, so an ignored one stays out of later rounds.
import { createHash } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { Deps } from '../../deps.ts'
import { listIndexArchives } from '../../db/repos/archives.repo.ts'
import { findTankoubonsWithMembers } from '../../db/repos/tankoubons.repo.ts'
import {
  deleteIgnoredSuggestion,
  listIgnoredSuggestions,
  saveIgnoredSuggestion,
  type IgnoredGroupSuggestion,
} from '../../db/repos/group-suggestions.repo.ts'
import { tx } from '../../db/client.ts'
import { fail } from '../../errors.ts'
import type { ChatMessage } from '../../llm/client.ts'
import { parseArchiveId } from '../../model/ids.ts'
import { naturalCompare } from '../../model/natural-sort.ts'
import { splitTags } from '../../model/tags.ts'

/** Candidates sent to the model in one round by default, and at most. */
export const DEFAULT_GROUP_LIMIT = 20
export const MAX_GROUP_LIMIT = 50
/** Archives of one candidate named to the model (the rest are counted). */
const TITLES_SHOWN = 30
/** A candidate this large is most likely a loose match (a common word), not one series. */
const MAX_CANDIDATE_SIZE = 500
/** Ids an ignore request may carry. */
export const MAX_IGNORED_IDS = 5000

export type { IgnoredGroupSuggestion }

export type GroupCandidate = {
  key: string
  /** Why they were put together: a shared normalized title, a shared series: tag, or both. */
  reasons: ('title' | 'series')[]
  archives: { id: string; title: string }[]
}

export type GroupSuggestion = GroupCandidate & { name: string }

export type GroupSuggestions = {
  suggestions: GroupSuggestion[]
  /** Candidates found, ignored ones left out (more than were sent when past the limit). */
  candidates: number
  /** Candidates the model turned down. */
  rejected: number
  ignored: number
}

/** The stable key of a group: the first 32 hex digits of SHA-256 over the sorted ids. */
export function groupKey(archiveIds: readonly string[]): string {
  const sorted = [...new Set(archiveIds)].sort()
  return createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 32)
}

const VOLUME_MARK =
  /(?:^|\s)(?:vol(?:ume)?|v|ch(?:apter|ap)?|c|part|pt|episode|ep|book|no|issue|#)\.?\s*\d+(?:[.-]\d+)?\b/giu
const BRACKETS = /\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|【[^】]*】|（[^）]*）/gu

/** A title's series key: brackets, volume/chapter marks, numbers and punctuation stripped. */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(BRACKETS, ' ')
    .replace(/[_.]+/g, ' ')
    .replace(VOLUME_MARK, ' ')
    .replace(/第\s*\d+\s*[巻話卷章]/gu, ' ')
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/(?:^|\s)\d+(?=\s|$)/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

function tagValues(tags: string, namespace: string): string[] {
  const prefix = namespace + ':'
  return splitTags(tags)
    .filter((t) => t.toLowerCase().startsWith(prefix))
    .map((t) => t.slice(prefix.length).trim().toLowerCase())
    .filter(Boolean)
}

/** Candidate groups, without the model, among archives in no Tankoubon yet. */
export function findGroupCandidates(deps: Pick<Deps, 'db'>): GroupCandidate[] {
  const grouped = new Set<string>()
  for (const { members } of findTankoubonsWithMembers(deps.db))
    for (const id of members) grouped.add(id)
  const titles = new Map<string, string>()
  const buckets = new Map<string, { reason: 'title' | 'series'; ids: string[] }>()
  const put = (bucket: string, reason: 'title' | 'series', id: string) => {
    const entry = buckets.get(bucket)
    if (entry) entry.ids.push(id)
    else buckets.set(bucket, { reason, ids: [id] })
  }
  for (const archive of listIndexArchives(deps.db)) {
    if (grouped.has(archive.id)) continue
    titles.set(archive.id, archive.title)
    const key = normalizeTitle(archive.title)
    // A one- or two-letter key ("a", "ch") says nothing of a series.
    if (key.length >= 3) {
      const author =
        tagValues(archive.tags, 'artist')[0] ?? tagValues(archive.tags, 'circle')[0] ?? ''
      put(`t\u0000${key}\u0000${author}`, 'title', archive.id)
    }
    for (const series of tagValues(archive.tags, 'series'))
      put(`s\u0000${series}`, 'series', archive.id)
  }
  // Union-find over the buckets of two or more: one archive in two buckets joins them.
  const parent = new Map<string, string>()
  const find = (id: string): string => {
    let root = id
    while (parent.get(root) !== root) root = parent.get(root)!
    for (let at = id; at !== root;) {
      const next = parent.get(at)!
      parent.set(at, root)
      at = next
    }
    return root
  }
  const reasonsOf = new Map<string, Set<'title' | 'series'>>()
  for (const { reason, ids } of buckets.values()) {
    if (ids.length < 2 || ids.length > MAX_CANDIDATE_SIZE) continue
    for (const id of ids) if (!parent.has(id)) parent.set(id, id)
    const root = find(ids[0]!)
    for (const id of ids.slice(1)) {
      const other = find(id)
      if (other !== root) parent.set(other, root)
    }
    const reasons = reasonsOf.get(ids[0]!) ?? new Set()
    reasons.add(reason)
    reasonsOf.set(ids[0]!, reasons)
  }
  const groups = new Map<string, { ids: string[]; reasons: Set<'title' | 'series'> }>()
  for (const id of parent.keys()) {
    const root = find(id)
    const group = groups.get(root) ?? { ids: [], reasons: new Set() }
    group.ids.push(id)
    for (const r of reasonsOf.get(id) ?? []) group.reasons.add(r)
    groups.set(root, group)
  }
  return [...groups.values()]
    .filter((g) => g.ids.length >= 2 && g.ids.length <= MAX_CANDIDATE_SIZE)
    .map((g) => {
      const archives = g.ids
        .map((id) => ({ id, title: titles.get(id)! }))
        .sort((a, b) => naturalCompare(a.title, b.title) || (a.id < b.id ? -1 : 1))
      return {
        key: groupKey(g.ids),
        reasons: [...g.reasons].sort(),
        archives,
      }
    })
    .sort(
      (a, b) =>
        b.archives.length - a.archives.length ||
        naturalCompare(a.archives[0]!.title, b.archives[0]!.title),
    )
}

const SYSTEM = `You help organise a comic and manga library. You are given candidate groups of
archives that may be volumes or chapters of one series (they share a title pattern or a series
tag). For each group decide whether its archives really are one series, and if so give the
series name: the title without volume numbers, scanlator, language or release-group marks, in the
original language of the titles.`

const Answer = Type.Object({
  groups: Type.Array(
    Type.Object({
      index: Type.Integer({ minimum: 0 }),
      same_series: Type.Boolean(),
      name: Type.Optional(Type.String({ maxLength: 255 })),
    }),
  ),
})
type AnswerShape = {
  groups: { index: number; same_series: boolean; name?: string }[]
}

/** Finds candidates, leaves out ignored ones, and asks the model to confirm and name them. */
export async function suggestGroups(
  deps: Pick<Deps, 'db' | 'llm'>,
  options: { limit?: number; signal?: AbortSignal } = {},
): Promise<GroupSuggestions> {
  if (!deps.llm.configured())
    throw fail.bad_request('No language-model provider key is configured.')
  const limit = options.limit ?? DEFAULT_GROUP_LIMIT
  const ignored = new Set(listIgnoredSuggestions(deps.db).map((e) => e.key))
  const all = findGroupCandidates(deps)
  const open = all.filter((c) => !ignored.has(c.key))
  const sent = open.slice(0, limit)
  const counts = { candidates: open.length, ignored: all.length - open.length }
  if (sent.length === 0) return { suggestions: [], rejected: 0, ...counts }
  const listing = sent
    .map((c, index) => {
      const shown = c.archives.slice(0, TITLES_SHOWN).map((a) => `  - ${JSON.stringify(a.title)}`)
      const more = c.archives.length - shown.length
      return `Group ${index} (${c.archives.length} archives):\n${shown.join('\n')}${more > 0 ? `\n  (and ${more} more)` : ''}`
    })
    .join('\n\n')
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `${listing}\n\nAnswer {"groups": [{"index": group number, "same_series": true or false, ` +
        '"name": the series name when same_series}]}, one entry per group.',
    },
  ]
  const answer = await deps.llm.json<AnswerShape>(messages, Answer, { signal: options.signal })
  // The answer is checked whole before any of it is used: an entry for a group that was not
  // asked about, a group answered twice, or a confirmed group without a name is an invalid answer.
  const seen = new Set<number>()
  for (const entry of answer.groups) {
    if (entry.index >= sent.length || seen.has(entry.index))
      throw fail.bad_gateway(
        `The language model's answer names group ${entry.index}, which was not asked about or is named twice.`,
        { reason: 'invalid_answer' },
      )
    seen.add(entry.index)
    if (entry.same_series && !entry.name?.trim())
      throw fail.bad_gateway(`The language model confirmed group ${entry.index} without a name.`, {
        reason: 'invalid_answer',
      })
  }
  const suggestions = answer.groups
    .filter((e) => e.same_series)
    .sort((a, b) => a.index - b.index)
    .map((e) => ({ ...sent[e.index]!, name: e.name!.trim() }))
  return { suggestions, rejected: sent.length - suggestions.length, ...counts }
}

function cleanIds(raw: readonly string[]): string[] {
  if (raw.length < 2) throw fail.bad_request('A group suggestion holds at least two archives.')
  if (raw.length > MAX_IGNORED_IDS)
    throw fail.bad_request(`A group suggestion holds at most ${MAX_IGNORED_IDS} archives.`)
  const ids = [...new Set(raw.map((id) => parseArchiveId(id)))].sort()
  if (ids.length < 2) throw fail.bad_request('A group suggestion holds at least two archives.')
  return ids
}

/** Ignores a suggestion by its archives (POST .../ignore); again: ignored_at is overwritten. */
export function ignoreGroupSuggestion(
  deps: Pick<Deps, 'db'>,
  archiveIds: readonly string[],
): IgnoredGroupSuggestion {
  const ids = cleanIds(archiveIds)
  const entry = { key: groupKey(ids), archiveIds: ids, ignoredAt: Math.floor(Date.now() / 1000) }
  tx(deps.db, () => saveIgnoredSuggestion(deps.db, entry))
  return entry
}

/** Re-enables a suggestion by key or archives (DELETE .../ignore); a no-op when not ignored. */
export function unignoreGroupSuggestion(
  deps: Pick<Deps, 'db'>,
  target: { key?: string; archiveIds?: readonly string[] },
): { key: string; removed: boolean } {
  let key: string
  if (target.key !== undefined) {
    if (!/^[0-9a-f]{32}$/.test(target.key))
      throw fail.bad_request('key must be 32 lowercase hex digits (a suggestion key).')
    key = target.key
  } else if (target.archiveIds !== undefined) key = groupKey(cleanIds(target.archiveIds))
  else throw fail.bad_request('Give the suggestion as key or archives.')
  const removed = tx(deps.db, () => deleteIgnoredSuggestion(deps.db, key))
  return { key, removed }
}

export function listIgnoredGroupSuggestions(deps: Pick<Deps, 'db'>): IgnoredGroupSuggestion[] {
  return listIgnoredSuggestions(deps.db)
}
