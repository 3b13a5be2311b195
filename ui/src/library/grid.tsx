// The covers grid: one card per hit (archive or Tankoubon), skeletons before the first answer,
// and a sentinel that loads the next page when it scrolls near (a button does the same).
import { useEffect, useRef } from 'preact/hooks'
import { Cover } from '../components/cover.tsx'
import { href } from '../router.ts'
import { isNew, type ArchiveMeta } from '../types.ts'
import type { Results } from './use-results.ts'
import { ErrorText } from '../components/error-text.tsx'

const SKELETON_CARDS = 12
const isTank = (id: string) => id.startsWith('TANK_')

/** The selection, while the user picks archives for a change to them all (bulk-bar.tsx). */
export type Picking = { selected: ReadonlySet<string>; toggle: (id: string) => void }

export function LibraryGrid({ results, picking }: { results: Results; picking: Picking | null }) {
  const { items, loading, done, error, loadMore } = results
  const first = loading && items.length === 0
  return (
    <div class="lib-results">
      <ul class="lib-grid" aria-label="Archives" aria-busy={loading}>
        {first
          ? Array.from({ length: SKELETON_CARDS }, (_, i) => <SkeletonCard key={i} />)
          : items.map((item) => <Card key={item.arcid} item={item} picking={picking} />)}
      </ul>
      {!loading && !error && items.length === 0 && <p class="muted">Nothing matches.</p>}
      <ErrorText text={error} />
      {!done && !first && (
        <MoreSentinel
          loading={loading}
          failed={error !== null}
          onMore={loadMore}
          count={items.length}
        />
      )}
    </div>
  )
}

function Card({ item, picking }: { item: ArchiveMeta; picking: Picking | null }) {
  const tank = isTank(item.arcid)
  // Archives only: a Tankoubon is changed from its own page.
  const pickable = picking !== null && !tank
  const picked = pickable && picking.selected.has(item.arcid)
  const thumb = tank
    ? `/api/tankoubons/${encodeURIComponent(item.arcid)}/thumbnail`
    : `/api/archives/${encodeURIComponent(item.arcid)}/thumbnail`
  const info = tank ? href(['tankoubons', item.arcid]) : href(['archive', item.arcid])
  const pages = Number(item.pagecount) || 0
  const progress = Math.min(Number(item.progress) || 0, pages)
  return (
    <li class={picked ? 'lib-card lib-card-picked' : 'lib-card'}>
      <a
        class="lib-card-open"
        href={href(['reader', item.arcid])}
        onClick={(e) => {
          if (!pickable) return
          // While picking, a click on the cover picks it instead of opening the book.
          e.preventDefault()
          picking.toggle(item.arcid)
        }}
      >
        <Cover src={thumb} alt="" />
        <span class="lib-card-title" title={item.title}>
          {item.title}
        </span>
      </a>
      {pickable && (
        <label class="lib-card-pick">
          <input
            type="checkbox"
            checked={picked}
            aria-label={`Select ${item.title}`}
            onChange={() => picking.toggle(item.arcid)}
          />
        </label>
      )}
      <div class="lib-card-badges">
        {tank && <span class="lib-badge">Tankoubon</span>}
        {isNew(item.isnew) && <span class="lib-badge lib-badge-new">New</span>}
      </div>
      <a class="lib-card-info button icon" href={info} aria-label={`Details: ${item.title}`}>
        i
      </a>
      {pages > 0 && progress > 0 && (
        <div
          class="lib-progress"
          role="progressbar"
          aria-label="Reading progress"
          aria-valuemin={0}
          aria-valuemax={pages}
          aria-valuenow={progress}
          style={{ '--p': String(progress / pages) }}
        />
      )}
    </li>
  )
}

function SkeletonCard() {
  return (
    <li class="lib-card lib-card-skeleton" aria-hidden="true">
      <div class="cover">
        <div class="skeleton" />
      </div>
      <span class="lib-card-title skeleton" />
    </li>
  )
}

/**
 * Observed afresh after each page, so a sentinel still in view after a short page fires again;
 * not after a failure, which only the user's Retry asks again (the sentinel stays in view).
 */
function MoreSentinel(props: {
  loading: boolean
  failed: boolean
  onMore: () => void
  count: number
}) {
  const { loading, failed, onMore, count } = props
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = ref.current
    if (!el || loading || failed || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => entries.some((entry) => entry.isIntersecting) && onMore(),
      { rootMargin: '600px' },
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [loading, failed, onMore, count])
  return (
    <div ref={ref} class="lib-more">
      <button type="button" onClick={onMore} disabled={loading}>
        {loading ? 'Loading…' : failed ? 'Retry' : 'Load more'}
      </button>
    </div>
  )
}
