// Sort, order, the three filter switches, the result count and the Random button.
import { api } from '../api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import { href, navigate } from '../router.ts'
import type { SearchAnswer } from '../types.ts'
import { filterParams, type LibraryQuery } from './query.ts'

/** Sorts every library has; any namespace is a sort too (docs/search.md, sortby). */
const BASE_SORTS: [string, string][] = [
  ['title', 'Title'],
  ['date_added', 'Date added'],
  ['lastread', 'Last read'],
]

type Props = {
  state: LibraryQuery
  namespaces: string[]
  filtered: number | null
  total: number | null
  onChange: (change: Partial<LibraryQuery>) => void
}

export function LibraryToolbar({ state, namespaces, filtered, total, onChange }: Props) {
  const known = new Set(BASE_SORTS.map(([key]) => key))
  const sorts = [
    ...BASE_SORTS,
    ...[...new Set([...namespaces, state.sort])]
      .filter((ns) => ns && !known.has(ns))
      .map((ns): [string, string] => [ns, ns]),
  ]
  const random = async () => {
    try {
      const answer = await api<SearchAnswer | null>('/api/search/random', {
        query: { ...filterParams(state), count: 1 },
      })
      const pick = answer?.data[0]
      if (pick) navigate(href(['reader', pick.arcid]))
      else notify(answer ? 'Nothing to pick from.' : 'The index is still being built.')
    } catch (e) {
      notifyError(e)
    }
  }
  const toggle = (key: 'newonly' | 'untagged' | 'hidecompleted' | 'volumes', label: string) => (
    <label class="lib-toggle">
      <input
        type="checkbox"
        checked={state[key]}
        onChange={(e) => onChange({ [key]: (e.target as HTMLInputElement).checked })}
      />
      {label}
    </label>
  )
  return (
    <div class="lib-toolbar row">
      <p class="lib-count" aria-live="polite">
        {filtered === null
          ? '\u00a0'
          : filtered === total
            ? `${filtered} ${filtered === 1 ? 'archive' : 'archives'}`
            : `${filtered} of ${total} archives`}
      </p>
      <label>
        <span>Sort by</span>
        <select
          value={state.sort}
          onChange={(e) => onChange({ sort: (e.target as HTMLSelectElement).value })}
        >
          {sorts.map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        aria-label={`Order: ${state.order === 'asc' ? 'ascending' : 'descending'}`}
        onClick={() => onChange({ order: state.order === 'asc' ? 'desc' : 'asc' })}
      >
        {state.order === 'asc' ? '↑ Asc' : '↓ Desc'}
      </button>
      {toggle('newonly', 'New only')}
      {toggle('untagged', 'Untagged only')}
      {toggle('hidecompleted', 'Hide completed')}
      {toggle('volumes', 'Show volumes')}
      <button type="button" onClick={random}>
        Random
      </button>
    </div>
  )
}
