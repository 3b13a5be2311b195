// The library's state lives in the hash query (`#/?q=&sort=&order=&category=...`), so back/forward,
// reloads and shared links show the same results.
import { href } from '../router.ts'
import type { Query } from '../api.ts'

export type LibraryQuery = {
  q: string
  sort: string
  order: 'asc' | 'desc'
  category: string
  newonly: boolean
  untagged: boolean
  hidecompleted: boolean
  /** Archives of a Tankoubon shown one by one instead of as the Tankoubon's one card. */
  volumes: boolean
  /** How many pages were loaded (infinite scroll), so a reload or back shows as many again. */
  page: number
}

const on = (value: string | null) => value === '1' || value === 'true'

export function readLibraryQuery(query: URLSearchParams): LibraryQuery {
  const page = Number.parseInt(query.get('page') ?? '', 10)
  return {
    q: query.get('q') ?? '',
    sort: query.get('sort') || 'title',
    order: query.get('order') === 'desc' ? 'desc' : 'asc',
    category: query.get('category') ?? '',
    newonly: on(query.get('newonly')),
    untagged: on(query.get('untagged')),
    hidecompleted: on(query.get('hidecompleted')),
    volumes: on(query.get('volumes')),
    page: Number.isFinite(page) && page > 1 ? page : 1,
  }
}

/** The library link for a state; defaults are left out so links stay short. */
export function libraryHref(state: LibraryQuery): string {
  const flag = (value: boolean) => (value ? '1' : undefined)
  return href([], {
    q: state.q || undefined,
    sort: state.sort === 'title' ? undefined : state.sort,
    order: state.order === 'asc' ? undefined : state.order,
    category: state.category || undefined,
    newonly: flag(state.newonly),
    untagged: flag(state.untagged),
    hidecompleted: flag(state.hidecompleted),
    volumes: flag(state.volumes),
    page: state.page > 1 ? state.page : undefined,
  })
}

/** The filter parameters every search endpoint reads (docs/search.md, Parameters). */
export function filterParams(state: LibraryQuery): Query {
  return {
    filter: state.q,
    category: state.category || undefined,
    newonly: state.newonly || undefined,
    untaggedonly: state.untagged || undefined,
    hidecompleted: state.hidecompleted || undefined,
  }
}

/** Everything but the page: results are reloaded from the start when this changes. */
export const searchKey = (state: LibraryQuery): string => JSON.stringify({ ...state, page: 0 })
