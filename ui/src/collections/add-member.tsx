// Finding archives to add to a Tankoubon: the library search (same filter syntax as the library).
import { useState } from 'preact/hooks'
import { api, messageOf } from '../api.ts'
import type { ArchiveMeta, SearchAnswer } from '../types.ts'
import { ErrorText } from '../components/error-text.tsx'

export function AddMember(props: {
  memberIds: Set<string>
  onAdd: (archive: ArchiveMeta) => void
}) {
  const [filter, setFilter] = useState('')
  const [found, setFound] = useState<ArchiveMeta[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  const search = async () => {
    try {
      const answer = await api<SearchAnswer | null>('/api/search', { query: { filter, start: 0 } })
      // 204 while the index is first built.
      setFound(answer?.data ?? [])
      setError(null)
    } catch (e) {
      setError(messageOf(e))
    }
  }

  return (
    <div class="stack card">
      <form
        class="row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault()
          void search()
        }}
      >
        <input
          aria-label="Search archives to add"
          placeholder="Title, tag or filter"
          value={filter}
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Search</button>
      </form>
      <ErrorText text={error} />
      {found && found.length === 0 && <p class="muted">No archive matches.</p>}
      {found && found.length > 0 && (
        <ul class="tank-found" aria-label="Search results">
          {found.map((a) => (
            <li key={a.arcid} class="row">
              <span class="tank-title">{a.title || a.filename}</span>
              <button
                type="button"
                aria-label={`Add ${a.title || a.filename}`}
                disabled={props.memberIds.has(a.arcid)}
                onClick={() => props.onAdd(a)}
              >
                {props.memberIds.has(a.arcid) ? 'Added' : 'Add'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
