// What a Tankoubon takes from its members, one rule set for the search index (filters, sorting)
// and for the Tankoubon hits search answers: pages summed, New when any member is, read when
// itself or any member was last read, progress within the pages, own tags before members' tags.
import { naturalCompare } from './natural-sort.ts'
import { joinTags, splitTags, tagNamespace } from './tags.ts'

/** What a Tankoubon stores of its own reading state. */
export type TankoubonOwnState = { progress: number; lastreadtime: number }

/** What a member archive contributes (an archive row fits as it is). */
export type MemberFigures = { pagecount: number; isnew: boolean; lastreadtime: number }

export type TankoubonSummary = {
  pagecount: number
  isnew: boolean
  /** Global page last read, never past the members' pages. */
  progress: number
  lastreadtime: number
}

/** The figures of a Tankoubon over its live members (vanished members are left out first). */
export function summarizeTankoubon(
  own: TankoubonOwnState,
  members: readonly MemberFigures[],
): TankoubonSummary {
  let pagecount = 0
  let isnew = false
  let lastreadtime = own.lastreadtime
  for (const member of members) {
    pagecount += member.pagecount
    isnew ||= member.isnew
    // Reading a member counts as reading the Tankoubon (sortby=lastread would drop it otherwise).
    lastreadtime = Math.max(lastreadtime, member.lastreadtime)
  }
  // A removed member can leave the stored progress past the pages that remain.
  const progress = pagecount > 0 ? Math.min(own.progress, pagecount) : own.progress
  return { pagecount, isnew, progress, lastreadtime }
}

const tagValue = (tag: string) => tag.slice(tag.indexOf(':') + 1).trim()

/**
 * A Tankoubon's tags as clients see them: its own, then its members', each once. Of the
 * `date_added` tags only the newest stays, as in LANraragi: clients read one date from it. (The
 * search index matches on every member's tags, dates included, so a filter on a member's date
 * still finds its Tankoubon.)
 */
export function tankoubonTags(own: string, memberTags: readonly string[]): string {
  const tags = splitTags([own, ...memberTags].join(','))
  let newest: string | undefined
  for (const tag of tags) {
    if (tagNamespace(tag) !== 'date_added') continue
    if (newest === undefined || naturalCompare(tagValue(tag), tagValue(newest)) > 0) newest = tag
  }
  if (newest === undefined) return joinTags(tags)
  return joinTags(tags.filter((tag) => tag === newest || tagNamespace(tag) !== 'date_added'))
}
