// Global page numbering of a Tankoubon: member pages concatenated in member order. Every
// operation taking a global page resolves it here, server-side, to (member archive, local page).
import type { Db } from '../../db/client.ts'
import { findArchives, readArchivePages } from '../../db/repos/archives.repo.ts'

/** A member and its page entry names; a missing, hidden or unscanned member has none. */
export type MemberPages = { archiveId: string; pages: readonly string[] }

export type ResolvedPage = {
  archiveId: string
  /** 1-based page inside the member archive. */
  localPage: number
  /** Position of the member in the Tankoubon. */
  index: number
  /** Global pages before this member. */
  offset: number
  filename: string
}

export function totalPages(members: readonly MemberPages[]): number {
  return members.reduce((sum, m) => sum + m.pages.length, 0)
}

/** The member and local page of a 1-based global page; undefined when out of range. */
export function resolveGlobalPage(
  members: readonly MemberPages[],
  page: number,
): ResolvedPage | undefined {
  if (!Number.isInteger(page) || page < 1) return undefined
  let offset = 0
  for (const [index, member] of members.entries()) {
    const count = member.pages.length
    if (page <= offset + count) {
      const localPage = page - offset
      const filename = member.pages[localPage - 1]!
      return { archiveId: member.archiveId, localPage, index, offset, filename }
    }
    offset += count
  }
  return undefined
}

/** Page lists of the members in order; vanished or unlinked archives contribute no pages. */
export function loadMemberPages(db: Db, memberIds: readonly string[]): MemberPages[] {
  const live = new Set(
    findArchives(db, [...memberIds])
      .filter((row) => !row.unlinked)
      .map((row) => row.id),
  )
  return memberIds.map((archiveId) => ({
    archiveId,
    pages: live.has(archiveId) ? (readArchivePages(db, archiveId) ?? []) : [],
  }))
}
