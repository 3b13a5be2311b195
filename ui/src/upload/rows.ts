// The upload list: one row per picked file, uploaded two at a time. Module state, so uploads keep
// going (and stay listed) when the user looks at another page meanwhile.
import { signal } from '@preact/signals'
import { messageOf } from '../api.ts'
import { uploadArchive, type UploadFields } from './send.ts'

/** Uploads in flight at once: more gains nothing on one disk and delays every file's first byte. */
const PARALLEL_UPLOADS = 2

export type UploadRow = {
  key: number
  name: string
  size: number
  /** Bytes of the request sent, of `total` (the multipart body: a little more than the file). */
  sent: number
  total: number
  state: 'waiting' | 'uploading' | 'done' | 'error'
  archiveId?: string
  title?: string
  error?: string
}

export const uploadRows = signal<UploadRow[]>([])

let nextKey = 1
let active = 0
const pending: { key: number; file: File; fields: UploadFields }[] = []

function patch(key: number, change: Partial<UploadRow>) {
  uploadRows.value = uploadRows.value.map((row) => (row.key === key ? { ...row, ...change } : row))
}

function pump() {
  while (active < PARALLEL_UPLOADS && pending.length > 0) {
    const job = pending.shift()!
    active++
    patch(job.key, { state: 'uploading' })
    uploadArchive(job.file, job.fields, (sent, total) => patch(job.key, { sent, total }))
      .then((done) =>
        patch(job.key, {
          state: 'done',
          sent: uploadRows.value.find((row) => row.key === job.key)?.total ?? 0,
          archiveId: done.id,
          title: done.title,
        }),
      )
      .catch((error: unknown) => patch(job.key, { state: 'error', error: messageOf(error) }))
      .finally(() => {
        active--
        pump()
      })
  }
}

export function enqueueUploads(files: File[], fields: UploadFields) {
  const rows = files.map((file) => {
    const key = nextKey++
    pending.push({ key, file, fields })
    return {
      key,
      name: file.name,
      size: file.size,
      sent: 0,
      total: file.size,
      state: 'waiting' as const,
    }
  })
  uploadRows.value = [...uploadRows.value, ...rows]
  pump()
}

/** Drops finished rows (done or failed) from the list. */
export function clearFinishedUploads() {
  uploadRows.value = uploadRows.value.filter(
    (row) => row.state === 'waiting' || row.state === 'uploading',
  )
}
