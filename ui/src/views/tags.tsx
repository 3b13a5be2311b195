// `#/tags`: every namespace and its tags with how many archives carry each, from
// /api/database/stats (the tag cloud's source, all of it rather than its top 40). A filter
// narrows namespaces and values; each tag links to the library searching for it. Namespaces are
// shown by their most used tags first, the rest on demand, so 50,000 tags do not all render.
import { useEffect, useMemo, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { ErrorText } from '../components/error-text.tsx'
import { namespaceHue, searchTermFor } from '../components/tags.tsx'
import { useApi } from '../components/use-api.ts'
import { tagOf, type TagStat } from '../library/sidebar.tsx'
import { href } from '../router.ts'

/** Tags shown per namespace before "Show all". */
const FIRST_TAGS = 60
const INDEXING_RETRY_MS = 2000

type Group = { namespace: string; tags: TagStat[]; archives: number }

function groupByNamespace(stats: TagStat[], filter: string): Group[] {
  const needle = filter.trim().toLowerCase()
  const groups = new Map<string, TagStat[]>()
  for (const stat of stats) {
    const tag = tagOf(stat)
    if (needle && !tag.toLowerCase().includes(needle)) continue
    const list = groups.get(stat.namespace)
    if (list) list.push(stat)
    else groups.set(stat.namespace, [stat])
  }
  return [...groups]
    .map(([namespace, tags]) => ({
      namespace,
      // The server sends most used first; kept.
      tags,
      archives: tags.reduce((sum, t) => sum + t.weight, 0),
    }))
    .sort(
      (a, b) =>
        (a.namespace === '' ? 1 : b.namespace === '' ? -1 : 0) ||
        a.namespace.localeCompare(b.namespace),
    )
}

export function TagsView(_: { parts: string[] }) {
  const stats = useApi(
    () => api<TagStat[] | null>('/api/database/stats', { query: { minweight: 1 } }),
    [],
  )
  // 204 (null) while the index is built: asked again shortly.
  const pending = !stats.loading && stats.data === null && !stats.error
  useEffect(() => {
    if (!pending) return
    const timer = setTimeout(stats.reload, INDEXING_RETRY_MS)
    return () => clearTimeout(timer)
  }, [pending, stats.reload])

  const [filter, setFilter] = useState('')
  const groups = useMemo(
    () =>
      groupByNamespace(
        (stats.data ?? []).filter((s) => s.namespace !== 'date_added'),
        filter,
      ),
    [stats.data, filter],
  )

  return (
    <section class="tags-page stack">
      <h1>Tags</h1>
      <label class="stack-label">
        Filter
        <input
          type="search"
          value={filter}
          placeholder="a namespace or a value"
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
        />
      </label>
      <ErrorText text={stats.error} />
      {(stats.loading || pending) && (
        <p class="muted" role="status">
          {pending ? 'Indexing…' : 'Loading…'}
        </p>
      )}
      {stats.data && groups.length === 0 && <p class="muted">No tags match.</p>}
      {groups.map((group) => (
        <NamespaceGroup key={group.namespace} group={group} />
      ))}
    </section>
  )
}

function NamespaceGroup({ group }: { group: Group }) {
  const [all, setAll] = useState(false)
  const shown = all ? group.tags : group.tags.slice(0, FIRST_TAGS)
  const name = group.namespace || 'no namespace'
  const style = group.namespace ? { '--tag-hue': String(namespaceHue(group.namespace)) } : undefined
  return (
    <section class="card stack tags-group" aria-label={name}>
      <h2>
        {name} <span class="muted">({group.tags.length})</span>
      </h2>
      <ul class="tags-list">
        {shown.map((stat) => (
          <li key={stat.text}>
            <a class="tag" style={style} href={href([], { q: searchTermFor(tagOf(stat)) })}>
              <span class="tag-value">{stat.text}</span>
              <span class="tags-count">{stat.weight}</span>
            </a>
          </li>
        ))}
      </ul>
      {shown.length < group.tags.length && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {group.tags.length}
        </button>
      )}
    </section>
  )
}
