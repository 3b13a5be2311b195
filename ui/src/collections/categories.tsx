// Categories (`#/categories`): the list with counts, create, edit, delete, and a link to the
// library filtered by each. Editing needs a login; guests see the list only.
import { useState } from 'preact/hooks'
import { api, form } from '../api.ts'
import { href } from '../router.ts'
import { loggedIn } from '../session.ts'
import { useApi } from '../components/use-api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import { flag, type Category } from '../types.ts'
import { CategoryForm, draftOf, type CategoryDraft } from './category-form.tsx'
import { ErrorText } from '../components/error-text.tsx'
import { ConfirmDeletion } from '../components/confirm.tsx'

/** LANraragi's form: flags as 'true'/'false'; the search is always sent so it can be cleared. */
const body = (draft: CategoryDraft) =>
  form({
    name: draft.name.trim(),
    search: draft.search.trim(),
    pinned: draft.pinned,
    visible_to_guest: draft.visible_to_guest,
  })

export function CategoriesView(_: { parts: string[] }) {
  const list = useApi(() => api<Category[]>('/api/categories'), [])
  const [creating, setCreating] = useState(false)
  const admin = loggedIn.value

  const create = async (draft: CategoryDraft) => {
    try {
      await api('/api/categories', { method: 'PUT', body: body(draft) })
      notify(`Created ${draft.name}`)
      setCreating(false)
      list.reload()
    } catch (e) {
      notifyError(e)
    }
  }

  const categories = [...(list.data ?? [])].sort(
    (a, b) => Number(flag(b.pinned)) - Number(flag(a.pinned)) || a.name.localeCompare(b.name),
  )
  return (
    <section class="stack categories">
      <div class="row">
        <h1>Categories</h1>
        {admin && !creating && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New category
          </button>
        )}
      </div>
      <p class="muted">
        A static category holds the archives you put in it; a dynamic one has a search and holds
        every archive that matches it.
      </p>
      {creating && (
        <div class="card">
          <h2>New category</h2>
          <CategoryForm
            initial={draftOf()}
            submitLabel="Create category"
            onSubmit={create}
            onCancel={() => setCreating(false)}
          />
        </div>
      )}
      <ErrorText text={list.error} />
      {list.loading && !list.data && <p class="muted">Loading…</p>}
      {list.data && categories.length === 0 && <p class="muted">No categories yet.</p>}
      <ul class="category-list" aria-label="Categories">
        {categories.map((c) => (
          <CategoryRow key={c.id} category={c} admin={admin} onChange={list.reload} />
        ))}
      </ul>
    </section>
  )
}

function CategoryRow(props: { category: Category; admin: boolean; onChange: () => void }) {
  const c = props.category
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)

  const save = async (draft: CategoryDraft) => {
    try {
      await api(`/api/categories/${encodeURIComponent(c.id)}`, { method: 'PUT', body: body(draft) })
      setEditing(false)
      props.onChange()
    } catch (e) {
      notifyError(e)
    }
  }
  const remove = async () => {
    try {
      await api(`/api/categories/${encodeURIComponent(c.id)}`, { method: 'DELETE' })
      notify(`Deleted ${c.name}`)
      props.onChange()
    } catch (e) {
      notifyError(e)
    }
  }

  if (editing)
    return (
      <li class="card" aria-label={c.name}>
        <CategoryForm
          initial={draftOf(c)}
          submitLabel="Save"
          onSubmit={save}
          onCancel={() => setEditing(false)}
        />
      </li>
    )
  return (
    <li class="card category-row" aria-label={c.name}>
      <div class="row">
        <strong>{c.name}</strong>
        {flag(c.pinned) && <span class="badge">pinned</span>}
        {flag(c.visible_to_guest) && <span class="badge">guests</span>}
      </div>
      <p class="muted">
        {c.search ? (
          <>
            Dynamic: <code>{c.search}</code>
          </>
        ) : (
          `Static: ${c.archives.length} ${c.archives.length === 1 ? 'archive' : 'archives'}`
        )}
      </p>
      <div class="row">
        <a href={href([], { category: c.id })}>Show in library</a>
        {props.admin && !confirming && (
          <>
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" class="danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          </>
        )}
        {confirming && (
          <ConfirmDeletion
            question={`Delete “${c.name}”? Its archives stay in the library.`}
            onConfirm={remove}
            onCancel={() => setConfirming(false)}
          />
        )}
      </div>
    </li>
  )
}
