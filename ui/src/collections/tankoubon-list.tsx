// The Tankoubons (`#/tankoubons?page=N`): paged as the server pages them (archives_per_page), and
// a form to create one, which opens it.
import { useState } from 'preact/hooks'
import { api, form } from '../api.ts'
import { href, navigate, route } from '../router.ts'
import { loggedIn, serverInfo } from '../session.ts'
import { useApi } from '../components/use-api.ts'
import { notifyError } from '../components/toast.tsx'
import type { Tankoubon } from '../types.ts'
import { ErrorText } from '../components/error-text.tsx'

type TankPage = { filtered: number; total: number; result: Tankoubon[] }

export function TankoubonList() {
  const page = Math.max(0, Number(route.value.query.get('page')) || 0)
  const list = useApi(() => api<TankPage>('/api/tankoubons', { query: { page } }), [page])
  const [name, setName] = useState('')
  const perPage = Number(serverInfo.value?.archives_per_page) || 100
  const pages = Math.max(1, Math.ceil((list.data?.filtered ?? 0) / perPage))

  const create = async () => {
    try {
      const answer = await api<{ tankoubon_id: string }>('/api/tankoubons', {
        method: 'PUT',
        body: form({ name: name.trim() }),
      })
      navigate(href(['tankoubons', answer.tankoubon_id]))
    } catch (e) {
      notifyError(e)
    }
  }

  return (
    <section class="stack tankoubons">
      <h1>Tankoubons</h1>
      <p class="muted">
        A Tankoubon binds archives (volumes, chapters) into one book read in order.
      </p>
      {loggedIn.value && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault()
            void create()
          }}
        >
          <input
            aria-label="New Tankoubon name"
            placeholder="Name"
            required
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
          <button type="submit" class="primary">
            Create Tankoubon
          </button>
        </form>
      )}
      <ErrorText text={list.error} />
      {list.loading && !list.data && <p class="muted">Loading…</p>}
      {list.data && list.data.result.length === 0 && <p class="muted">No Tankoubons yet.</p>}
      <ul class="tank-list" aria-label="Tankoubons">
        {list.data?.result.map((tank) => (
          <li key={tank.id} class="card row">
            <a href={href(['tankoubons', tank.id])}>{tank.name || tank.id}</a>
            <span class="muted">
              {tank.archives.length} {tank.archives.length === 1 ? 'archive' : 'archives'}
            </span>
            {tank.archives.length > 0 && <a href={href(['reader', tank.id])}>Read</a>}
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <nav class="row" aria-label="Pages">
          {page > 0 && <a href={href(['tankoubons'], { page: page - 1 })}>Previous</a>}
          <span>
            Page {page + 1} of {pages}
          </span>
          {page + 1 < pages && <a href={href(['tankoubons'], { page: page + 1 })}>Next</a>}
        </nav>
      )}
    </section>
  )
}
