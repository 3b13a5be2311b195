// Which static categories and Tankoubons hold this archive; a checkbox adds or removes it.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import { useApi } from '../components/use-api.ts'
import type { Category, Tankoubon } from '../types.ts'

type Group = { id: string; name: string }

const enc = encodeURIComponent

export function Memberships({ id }: { id: string }) {
  const categories = useApi(async () => {
    const [all, mine] = await Promise.all([
      api<Category[]>('/api/categories'),
      api<{ categories: Category[] }>(`/api/archives/${enc(id)}/categories`),
    ])
    // Dynamic categories (a saved search) have no members to edit.
    const groups = all.filter((c) => !c.search).map((c) => ({ id: c.id, name: c.name }))
    return { groups, member: new Set(mine.categories.map((c) => c.id)) }
  }, [id])
  const tankoubons = useApi(async () => {
    const [all, mine] = await Promise.all([
      api<{ result: Tankoubon[] }>('/api/tankoubons', { query: { page: -1 } }),
      api<{ tankoubons: string[] }>(`/api/archives/${enc(id)}/tankoubons`),
    ])
    const groups = all.result.map((t) => ({ id: t.id, name: t.name }))
    return { groups, member: new Set(mine.tankoubons) }
  }, [id])

  return (
    <section class="card stack" aria-labelledby="memberships-title">
      <h2 id="memberships-title">Collections</h2>
      <Checklist
        title="Categories"
        empty="No static categories."
        state={categories}
        path={(group) => `/api/categories/${enc(group.id)}/${enc(id)}`}
      />
      <Checklist
        title="Tankoubons"
        empty="No Tankoubons."
        state={tankoubons}
        path={(group) => `/api/tankoubons/${enc(group.id)}/${enc(id)}`}
      />
    </section>
  )
}

type ChecklistProps = {
  title: string
  empty: string
  state: {
    data: { groups: Group[]; member: Set<string> } | null
    error: string | null
    reload: () => void
  }
  path: (group: Group) => string
}

function Checklist({ title, empty, state, path }: ChecklistProps) {
  const [busy, setBusy] = useState<string | null>(null)
  // The box shows the wanted state at once; a refusal puts it back.
  const [wanted, setWanted] = useState<Record<string, boolean>>({})
  const toggle = (group: Group, add: boolean) => {
    setBusy(group.id)
    setWanted((w) => ({ ...w, [group.id]: add }))
    api<{ successMessage?: string }>(path(group), { method: add ? 'PUT' : 'DELETE' })
      .then((answer) => notify(answer?.successMessage || `${title}: ${group.name} updated.`))
      .catch((error) => {
        setWanted((w) => ({ ...w, [group.id]: !add }))
        notifyError(error)
      })
      .finally(() => setBusy(null))
  }
  return (
    <fieldset class="membership">
      <legend>{title}</legend>
      {state.error && (
        <p role="alert" class="error">
          {state.error}
        </p>
      )}
      {state.data && state.data.groups.length === 0 && <p class="muted">{empty}</p>}
      {state.data?.groups.map((group) => (
        <label key={group.id}>
          <input
            type="checkbox"
            checked={wanted[group.id] ?? state.data!.member.has(group.id)}
            disabled={busy === group.id}
            onChange={(e) => toggle(group, (e.currentTarget as HTMLInputElement).checked)}
          />
          <span>{group.name}</span>
        </label>
      ))}
    </fieldset>
  )
}
