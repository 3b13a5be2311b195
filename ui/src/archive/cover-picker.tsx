// Choosing the cover: page thumbnails (made on demand, 202 meanwhile: components/cover.tsx) of
// which one becomes the archive's thumbnail (PUT /api/archives/{id}/thumbnail?page=N).
import { useState } from 'preact/hooks'
import { api, apiUrl } from '../api.ts'
import { Cover } from '../components/cover.tsx'
import { notify, notifyError } from '../components/toast.tsx'

type Props = { id: string; pagecount: number; onChanged: () => void }

export function CoverPicker({ id, pagecount, onChanged }: Props) {
  const [busy, setBusy] = useState(false)
  const base = `/api/archives/${encodeURIComponent(id)}/thumbnail`
  const choose = (page: number) => {
    setBusy(true)
    api(base, { method: 'PUT', query: { page } })
      .then(() => {
        notify(`Page ${page} is now the cover.`)
        onChanged()
      })
      .catch(notifyError)
      .finally(() => setBusy(false))
  }
  return (
    <section class="card stack" aria-labelledby="cover-picker-title">
      <h2 id="cover-picker-title">Choose the cover</h2>
      <div class="cover-picker">
        {Array.from({ length: pagecount }, (_, i) => (
          <button
            key={i}
            type="button"
            class="cover-choice"
            disabled={busy}
            aria-label={`Use page ${i + 1} as the cover`}
            onClick={() => choose(i + 1)}
          >
            <Cover src={apiUrl(base, { page: i + 1 })} alt="" />
            <span>{i + 1}</span>
          </button>
        ))}
      </div>
    </section>
  )
}
