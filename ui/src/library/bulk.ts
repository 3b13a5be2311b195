// Changes to many archives at once, from the library's selection: each is the API call the
// archive page makes for one archive, made for each in turn (a few at a time), except deletion,
// which the server takes as one batch (DELETE /api/archives), and a plugin run, queued as one
// job per archive (POST /api/plugins/queue) that applies its result. Each answers how many archives it
// changed and the first failure's message, so the bar can say what happened.
import { api, form, messageOf } from '../api.ts'
import { saveMetadata } from '../archive/metadata-form.tsx'
import { splitTags } from '../components/tags.tsx'
import type { ArchiveMeta } from '../types.ts'

export type BulkOutcome = { done: number; failed: number; error: string | null }

/** Archives sent at once: enough to be quick, few enough to leave the server to others. */
const PARALLEL = 4

async function eachOf(
  ids: string[],
  work: (id: string) => Promise<unknown>,
  onProgress: (finished: number) => void,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: 0, failed: 0, error: null }
  let next = 0
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!
      try {
        await work(id)
        outcome.done++
      } catch (e) {
        outcome.failed++
        outcome.error ??= messageOf(e)
      }
      onProgress(outcome.done + outcome.failed)
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker))
  return outcome
}

const archivePath = (id: string) => `/api/archives/${encodeURIComponent(id)}`

export function addToCategory(
  ids: string[],
  category: string,
  onProgress: (n: number) => void,
): Promise<BulkOutcome> {
  const path = (id: string) =>
    `/api/categories/${encodeURIComponent(category)}/${encodeURIComponent(id)}`
  return eachOf(ids, (id) => api(path(id), { method: 'PUT' }), onProgress)
}

/**
 * Adds `add` and removes `remove` (compared without case) on each archive, from its tags as the
 * server has them now (the grid's copy may be older than another tab's edit).
 */
export function changeTags(
  ids: string[],
  change: { add: string[]; remove: string[] },
  onProgress: (n: number) => void,
): Promise<BulkOutcome> {
  const removed = new Set(change.remove.map((t) => t.toLowerCase()))
  return eachOf(
    ids,
    async (id) => {
      const meta = await api<ArchiveMeta>(`${archivePath(id)}/metadata`)
      const kept = splitTags(meta.tags).filter((t) => !removed.has(t.toLowerCase()))
      const have = new Set(kept.map((t) => t.toLowerCase()))
      const tags = [...kept, ...change.add.filter((t) => !have.has(t.toLowerCase()))]
      // An empty list is a change too: the last tags removed.
      if (tags.length === 0)
        return api(`${archivePath(id)}/metadata`, { method: 'PUT', body: form({ tags: '' }) })
      return saveMetadata(id, { tags })
    },
    onProgress,
  )
}

/** One `plugin_exec` job per archive; the Jobs page follows them. */
export function queuePlugin(
  ids: string[],
  plugin: string,
  onProgress: (n: number) => void,
): Promise<BulkOutcome> {
  return eachOf(
    ids,
    (id) => api('/api/plugins/queue', { method: 'POST', query: { plugin, id } }),
    onProgress,
  )
}

type DeleteAnswer = { results?: { id: string; success: number | boolean; error?: string }[] }

export async function deleteArchives(ids: string[]): Promise<BulkOutcome> {
  const answer = await api<DeleteAnswer>('/api/archives', { method: 'DELETE', json: { ids } })
  const results = answer?.results ?? []
  const failed = results.filter((r) => !r.success)
  return {
    done: results.length - failed.length,
    failed: failed.length,
    error: failed[0]?.error ?? null,
  }
}
