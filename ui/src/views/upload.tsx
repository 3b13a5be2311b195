// Upload (`#/upload`): drop or pick archives; each is sent on its own with a progress bar, then
// links to the new archive or shows the server's refusal.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { href } from '../router.ts'
import { useApi } from '../components/use-api.ts'
import type { Category } from '../types.ts'
import { clearFinishedUploads, enqueueUploads, uploadRows, type UploadRow } from '../upload/rows.ts'
import { formatBytes } from '../downloads/format.ts'
import { ErrorText } from '../components/error-text.tsx'
import { CategorySelect } from '../components/category-select.tsx'

export function UploadView(_: { parts: string[] }) {
  const categories = useApi(() => api<Category[]>('/api/categories'), [])
  const [categoryId, setCategoryId] = useState('')
  const [dragging, setDragging] = useState(false)

  const add = (list: FileList | null) => {
    const files = list ? Array.from(list) : []
    if (files.length > 0) enqueueUploads(files, { category_id: categoryId || undefined })
  }

  const rows = uploadRows.value
  return (
    <section class="stack upload">
      <h1>Upload</h1>
      <CategorySelect
        label="Add to category"
        categories={categories.data ?? []}
        value={categoryId}
        onChange={setCategoryId}
      />
      <div
        class={`upload-drop${dragging ? ' upload-drop-over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault()
          setDragging(false)
          add(e.dataTransfer?.files ?? null)
        }}
      >
        <p>Drop archives here (zip, cbz, rar, cbr, 7z, tar, pdf, epub…)</p>
        <label class="button primary">
          Choose files
          <input
            class="upload-input"
            type="file"
            multiple
            aria-label="Archive files"
            onChange={(e) => {
              const input = e.target as HTMLInputElement
              add(input.files)
              input.value = ''
            }}
          />
        </label>
      </div>
      {rows.length > 0 && (
        <>
          <div class="row">
            <h2>Files</h2>
            <button type="button" onClick={clearFinishedUploads}>
              Clear finished
            </button>
          </div>
          <ul class="upload-list" aria-label="Uploads">
            {rows.map((row) => (
              <UploadLine key={row.key} row={row} />
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

const STATE_TEXT: Record<UploadRow['state'], string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  done: 'Done',
  error: 'Failed',
}

function UploadLine({ row }: { row: UploadRow }) {
  return (
    <li class={`card upload-row upload-${row.state}`} aria-label={row.name}>
      <div class="row">
        <strong class="upload-name">{row.name}</strong>
        <span class="muted">{formatBytes(row.size)}</span>
        <span class="upload-state">{STATE_TEXT[row.state]}</span>
      </div>
      <progress
        max={row.total || 1}
        value={row.state === 'done' ? row.total || 1 : row.sent}
        aria-label={`Upload of ${row.name}`}
      />
      {row.state === 'done' && row.archiveId && (
        <div class="row">
          <a href={href(['archive', row.archiveId])}>{row.title || 'Open archive'}</a>
          <a href={href(['reader', row.archiveId])}>Read</a>
        </div>
      )}
      {row.state === 'error' && <ErrorText text={row.error} />}
    </li>
  )
}
