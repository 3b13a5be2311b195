// The library: search, sort and filters kept in the hash query, categories and a tag cloud at
// the side, and the covers grid with infinite scroll. Each part is a module in ui/src/library/.
import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { searchTermFor } from '../components/tags.tsx'
import { useApi } from '../components/use-api.ts'
import { navigate, route } from '../router.ts'
import { goToLogin, loggedIn } from '../session.ts'
import type { Category } from '../types.ts'
import { LibraryGrid, type Picking } from '../library/grid.tsx'
import { BulkBar } from '../library/bulk-bar.tsx'
import { libraryHref, readLibraryQuery, type LibraryQuery } from '../library/query.ts'
import { SearchBox } from '../library/search-box.tsx'
import { LibrarySidebar, type TagStat } from '../library/sidebar.tsx'
import { LibraryToolbar } from '../library/toolbar.tsx'
import { restoredPages, useResults } from '../library/use-results.ts'
import { useScrollMemory } from '../library/scroll-memory.ts'

const INDEXING_RETRY_MS = 2000

export function LibraryView(_: { parts: string[] }) {
  const state = readLibraryQuery(route.value.query)
  const results = useResults(state)
  // Picking archives for a change to them all: admins only, as every such change is.
  const [picking, setPicking] = useState(false)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const canPick = loggedIn.value
  const toggle = (id: string) =>
    setSelected((old) => {
      const next = new Set(old)
      if (!next.delete(id)) next.add(id)
      return next
    })
  const pick: Picking | null = canPick && picking ? { selected, toggle } : null
  const categories = useApi(() => api<Category[]>('/api/categories'), [])
  const stats = useApi(
    () =>
      api<TagStat[] | null>('/api/database/stats', {
        query: { minweight: 1, hide_excluded_namespaces: true },
      }),
    [],
  )
  // Stats answer 204 (null) like search until the index is built.
  const statsPending = !stats.loading && stats.data === null && !stats.error
  useEffect(() => {
    if (!statsPending) return
    const timer = setTimeout(stats.reload, INDEXING_RETRY_MS)
    return () => clearTimeout(timer)
  }, [statsPending, stats.reload])

  // Back from a book: the same place in the grid once the pages it showed are shown again.
  useScrollMemory(!results.loading && (results.done || results.pages >= restoredPages(state.page)))

  // The server wants a login to search (nofun mode, or the session ended): the login page, which
  // comes back here afterwards.
  useEffect(() => {
    if (results.errorStatus === 401) goToLogin()
  }, [results.errorStatus])

  // Record how many pages are shown, without a history entry per page. Only when that number
  // changes: the rest of `state` is read, not watched.
  useEffect(() => {
    if (results.pages > 0 && results.pages !== state.page)
      navigate(libraryHref({ ...state, page: results.pages }), { replace: true })
  }, [results.pages])

  const change = (patch: Partial<LibraryQuery>) =>
    navigate(libraryHref({ ...state, page: 1, ...patch }))
  const addTag = (tag: string) => {
    const term = searchTermFor(tag)
    change({ q: state.q.trim() ? `${state.q.trim()}, ${term}` : term })
  }
  const namespaces = [...new Set((stats.data ?? []).map((s) => s.namespace).filter(Boolean))].sort()

  return (
    <section class="library">
      <h1 class="lib-sr-only">Library</h1>
      <SearchBox value={state.q} onSearch={(q) => change({ q })} />
      <LibraryToolbar
        state={state}
        namespaces={namespaces}
        filtered={results.filtered}
        total={results.total}
        onChange={change}
      />
      {canPick && (
        <div class="row lib-pick-row">
          <button
            type="button"
            aria-pressed={picking}
            onClick={() => {
              setPicking(!picking)
              setSelected(new Set())
            }}
          >
            {picking ? 'Done selecting' : 'Select'}
          </button>
          {picking && (
            <button
              type="button"
              onClick={() =>
                setSelected(
                  new Set(
                    results.items.map((i) => i.arcid).filter((id) => !id.startsWith('TANK_')),
                  ),
                )
              }
            >
              Select all shown
            </button>
          )}
        </div>
      )}
      {results.indexing && (
        <p class="muted" role="status">
          Indexing…
        </p>
      )}
      <div class="lib-layout">
        <LibrarySidebar
          categories={categories.data}
          stats={stats.data}
          selected={state.category}
          onCategory={(category) => change({ category })}
          onTag={addTag}
        />
        <LibraryGrid results={results} picking={pick} />
      </div>
      {pick && (
        <BulkBar
          ids={[...selected]}
          categories={categories.data ?? []}
          onClear={() => setSelected(new Set())}
          onChanged={(deleted) => {
            if (deleted) setSelected(new Set())
            results.reload()
            categories.reload()
            stats.reload()
          }}
        />
      )}
    </section>
  )
}
