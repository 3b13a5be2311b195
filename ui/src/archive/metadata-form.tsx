// Editing title, tags and summary; saved as LANraragi takes it: form fields on
// PUT /api/archives/{id}/metadata.
import { useState } from 'preact/hooks'
import { api, form } from '../api.ts'
import { splitTags } from '../components/tags.tsx'
import { notify, notifyError } from '../components/toast.tsx'
import type { ArchiveMeta } from '../types.ts'
import { TagEditor } from './tag-editor.tsx'

export type MetadataChange = { title?: string; tags?: string[]; summary?: string }

export function saveMetadata(id: string, change: MetadataChange): Promise<unknown> {
  return api(`/api/archives/${encodeURIComponent(id)}/metadata`, {
    method: 'PUT',
    body: form({ title: change.title, tags: change.tags?.join(', '), summary: change.summary }),
  })
}

type Props = { archive: ArchiveMeta; onSaved: () => void; onCancel: () => void }

export function MetadataForm({ archive, onSaved, onCancel }: Props) {
  const [title, setTitle] = useState(archive.title)
  const [tags, setTags] = useState(splitTags(archive.tags))
  const [summary, setSummary] = useState(archive.summary ?? '')
  const [saving, setSaving] = useState(false)

  const submit = (e: Event) => {
    e.preventDefault()
    setSaving(true)
    saveMetadata(archive.arcid, { title, tags, summary })
      .then(() => {
        notify('Metadata saved.')
        onSaved()
      })
      .catch(notifyError)
      .finally(() => setSaving(false))
  }

  return (
    <form class="card stack archive-edit" onSubmit={submit} aria-label="Edit metadata">
      <label class="stack-label">
        Title
        <input
          value={title}
          onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <div class="stack-label">
        <span>Tags</span>
        <TagEditor tags={tags} onChange={setTags} />
      </div>
      <label class="stack-label">
        Summary
        <textarea
          value={summary}
          onInput={(e) => setSummary((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="row">
        <button type="submit" class="primary" disabled={saving}>
          Save metadata
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
