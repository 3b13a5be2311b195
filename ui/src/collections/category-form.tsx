// The fields of a category (create and edit): name, the search that makes it dynamic, flags.
import { useState } from 'preact/hooks'
import type { Category } from '../types.ts'
import { flag } from '../types.ts'

export type CategoryDraft = {
  name: string
  search: string
  pinned: boolean
  visible_to_guest: boolean
}

export const draftOf = (c?: Category): CategoryDraft => ({
  name: c?.name ?? '',
  search: c?.search ?? '',
  pinned: flag(c?.pinned),
  visible_to_guest: flag(c?.visible_to_guest),
})

export function CategoryForm(props: {
  initial: CategoryDraft
  submitLabel: string
  onSubmit: (draft: CategoryDraft) => Promise<void>
  onCancel?: () => void
}) {
  const [draft, setDraft] = useState(props.initial)
  const [busy, setBusy] = useState(false)
  const set = (change: Partial<CategoryDraft>) => setDraft({ ...draft, ...change })
  return (
    <form
      class="stack category-form"
      onSubmit={(e) => {
        e.preventDefault()
        setBusy(true)
        props.onSubmit(draft).finally(() => setBusy(false))
      }}
    >
      <label class="stack-label">
        Name
        <input
          required
          value={draft.name}
          onInput={(e) => set({ name: (e.target as HTMLInputElement).value })}
        />
      </label>
      <label class="stack-label">
        Search (leave empty for a static category)
        <input
          value={draft.search}
          placeholder="e.g. artist:someone, language:english"
          onInput={(e) => set({ search: (e.target as HTMLInputElement).value })}
        />
      </label>
      <div class="row">
        <label>
          <input
            type="checkbox"
            checked={draft.pinned}
            onChange={(e) => set({ pinned: (e.target as HTMLInputElement).checked })}
          />{' '}
          Pinned
        </label>
        <label>
          <input
            type="checkbox"
            checked={draft.visible_to_guest}
            onChange={(e) => set({ visible_to_guest: (e.target as HTMLInputElement).checked })}
          />{' '}
          Visible to guests
        </label>
      </div>
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  )
}
