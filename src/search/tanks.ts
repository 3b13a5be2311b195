// Tankoubons inside the index: membership both ways, and each Tankoubon's document derived from
// its own name and tags plus its members' tags, pages, New flags and last-read times (the rules
// of model/tankoubon-summary.ts). Member changes mark the Tankoubon dirty; flush() re-derives
// before the next read, so bulk edits derive once.
import { summarizeTankoubon, type MemberFigures } from '../model/tankoubon-summary.ts'
import { foldTags } from './query.ts'
import { ARCHIVE, TANK, type Store } from './store.ts'
import type { IndexTankoubon } from './types.ts'
import type { Vocabulary } from './vocabulary.ts'

export function createTanks(store: Store, vocab: Vocabulary) {
  const records = new Map<string, IndexTankoubon>()
  const tanksOf = new Map<string, Set<string>>()
  const dirty = new Set<string>()

  const syncGroupCount = (archiveId: string) => {
    const slot = store.find(archiveId)
    if (slot === undefined || store.kind[slot] !== ARCHIVE) return
    store.groupCount[slot] = tanksOf.get(archiveId)?.size ?? 0
  }

  const unlink = (record: IndexTankoubon) => {
    for (const member of record.members) {
      const set = tanksOf.get(member)
      set?.delete(record.id)
      if (set?.size === 0) tanksOf.delete(member)
      syncGroupCount(member)
    }
  }

  const derive = (record: IndexTankoubon, bulk: boolean) => {
    // Own tags first, then every member's: a filter on any member tag finds the Tankoubon.
    const tags = foldTags(record.tags)
    const live: MemberFigures[] = []
    for (const member of record.members) {
      const slot = store.find(member)
      if (slot === undefined || store.kind[slot] !== ARCHIVE) continue
      live.push({
        pagecount: store.pagecount[slot]!,
        isnew: store.isnew[slot] === 1,
        lastreadtime: store.lastread[slot]!,
      })
      const memberTags = store.tagsOf(slot)
      for (let i = 0; i < memberTags.length; i++) tags.push(vocab.tag(memberTags[i]!))
    }
    const summary = summarizeTankoubon(record, live)
    const slot = store.put(
      {
        id: record.id,
        kind: TANK,
        title: record.name,
        tags,
        pagecount: summary.pagecount,
        progress: summary.progress,
        lastread: summary.lastreadtime,
        isnew: summary.isnew,
      },
      bulk,
    )
    store.groupCount[slot] = live.length
  }

  const ownTags = (id: string): string[] => {
    const record = records.get(id)
    return record ? foldTags(record.tags) : []
  }

  return {
    /** Own tags of a Tankoubon, lower-cased (tag statistics count them once). */
    ownTags,
    /** Vocabulary ids of a Tankoubon's own tags (its sort keys come from them first). */
    ownTagIds(id: string): number[] {
      const ids: number[] = []
      for (const tag of ownTags(id)) {
        const tagId = vocab.idOf(tag)
        if (tagId !== undefined) ids.push(tagId)
      }
      return ids
    },
    has: (id: string) => records.has(id),
    members: (id: string): readonly string[] => records.get(id)?.members ?? [],
    tanksOf: (archiveId: string): ReadonlySet<string> | undefined => tanksOf.get(archiveId),

    set(record: IndexTankoubon, bulk = false) {
      const previous = records.get(record.id)
      if (previous) unlink(previous)
      records.set(record.id, record)
      for (const member of record.members) {
        const set = tanksOf.get(member)
        if (set) set.add(record.id)
        else tanksOf.set(member, new Set([record.id]))
        syncGroupCount(member)
      }
      if (bulk) dirty.add(record.id)
      else derive(record, false)
    },

    delete(id: string) {
      const record = records.get(id)
      if (!record) return
      unlink(record)
      records.delete(id)
      dirty.delete(id)
      store.remove(id)
    },

    /** An archive was written or removed: its Tankoubons need deriving again. */
    archiveChanged(archiveId: string) {
      syncGroupCount(archiveId)
      for (const tank of tanksOf.get(archiveId) ?? []) dirty.add(tank)
    },

    flush(bulk = false) {
      for (const id of dirty) {
        const record = records.get(id)
        if (record) derive(record, bulk)
      }
      dirty.clear()
    },
  }
}
