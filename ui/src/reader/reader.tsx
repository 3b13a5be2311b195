// One open book: the current page, how it is shown (prefs), navigation by keys, zones, swipes and
// the bars, progress saving, preloading, and the panels.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import { href, navigate, route } from '../router.ts'
import { loggedIn } from '../session.ts'
import { useApi } from '../components/use-api.ts'
import { notifyError } from '../components/toast.tsx'
import {
  addBookmark,
  clearNewFlag,
  listBookmarks,
  loadWidePages,
  removeBookmark,
  saveProgress,
  type Book,
} from './book.ts'
import { openBook, prefs } from './prefs.ts'
import { lastLibraryHref } from '../library/scroll-memory.ts'
import { spreadIndexOf, spreadsOf, type WidePages } from './spreads.ts'
import { preloadPage } from './image-cache.ts'
import { PagedStage } from './paged.tsx'
import type { Zone } from './zones.ts'
import { VerticalStage } from './vertical.tsx'
import { BottomBar, TopBar, type Panel } from './toolbar.tsx'
import { BookmarksPanel, PagesStrip, TocPanel } from './panels.tsx'
import { useReaderKeys } from './keys.ts'
import { wheelThrough } from './wheel-through.ts'

const HIDE_BARS_MS = 3000
const SAVE_PROGRESS_MS = 600
const PRELOAD_SPREADS = 3

const clamp = (n: number, count: number) =>
  Math.min(Math.max(1, Math.round(n) || 1), Math.max(count, 1))

export function Reader({ book }: { book: Book }) {
  const count = book.pages.length
  // This book's own layout, before anything reads it (once: Reader is keyed by the book's id).
  useState(() => openBook(book.id))
  const { mode, rtl, coverAlone, fit } = prefs.value
  const [page, setPage] = useState(() =>
    clamp(Number(route.value.query.get('page')) || book.progress || 1, count),
  )
  const [jump, setJump] = useState(0)
  const [bars, setBars] = useState(true)
  const [panel, setPanel] = useState<Panel>(null)
  const hovering = useRef(false)
  const [poke, setPoke] = useState(0)
  const verticalStage = useRef<HTMLDivElement>(null)

  // Page sizes matter to double page mode only: asked for once it is first used. When they
  // arrive the pairs may change; the current page stays shown, as spreads are found by page.
  const double = mode === 'double'
  const [wide, setWide] = useState<WidePages>([])
  const askedWide = useRef(false)
  useEffect(() => {
    if (!double || askedWide.current) return
    askedWide.current = true
    loadWidePages(book).then(setWide)
  }, [double, book])

  const spreads = useMemo(
    () => spreadsOf(count, double, coverAlone, wide),
    [count, double, coverAlone, wide],
  )
  const at = spreadIndexOf(spreads, page - 1)
  const spread = spreads[at] ?? [0]

  /** An explicit move: in vertical mode the stage scrolls to it. */
  const go = (target: number) => {
    setPage(clamp(target, count))
    setJump((n) => n + 1)
  }
  const step = (delta: 1 | -1) => {
    if (mode === 'vertical') return go(page + delta)
    const next = spreads[Math.min(Math.max(at + delta, 0), spreads.length - 1)]
    if (next) go(next[0]! + 1)
  }
  /** Screen sides: the left side goes back in left-to-right reading, forward in right-to-left. */
  const side = (which: 'left' | 'right') => step((which === 'right') !== rtl ? 1 : -1)
  // Back to the library as it was left (its search, pages and scroll position).
  const close = () => navigate(lastLibraryHref())

  const onZone = (zone: Zone) => {
    if (zone === 'center') setBars((shown) => !shown)
    else side(zone)
  }

  useReaderKeys({ step, side, first: () => go(1), last: () => go(count), close })

  // The address follows the page without new history entries: back leaves the reader. In the
  // same frame as the page, so a reload right after a turn reopens that page.
  useLayoutEffect(() => {
    history.replaceState(history.state, '', href(['reader', book.id], { page }))
  }, [page, book.id])

  // And the page follows the address: `?page=` edited by hand (a hashchange; the reader's own
  // replaceState above fires none) goes there. The first route is the one the page started from.
  const startRoute = useRef(route.value)
  useEffect(() => {
    if (route.value === startRoute.current) return
    const asked = Number(route.value.query.get('page'))
    if (Number.isInteger(asked) && asked >= 1 && asked !== page) go(asked)
    // Only a new route: `page` changes with every turn, which must not send the reader back.
  }, [route.value])

  // Progress, once the reader settles on a page; a page still waiting is saved on leaving.
  const unsaved = useRef<number | null>(null)
  const save = (n: number) => {
    unsaved.current = null
    saveProgress(book, n).catch(() => {
      // Progress tracking off, or a guest without progress rights: reading goes on.
    })
  }
  useEffect(() => {
    unsaved.current = page
    const timer = setTimeout(() => save(page), SAVE_PROGRESS_MS)
    return () => clearTimeout(timer)
  }, [page, book])
  useEffect(
    () => () => {
      if (unsaved.current !== null) save(unsaved.current)
    },
    [book],
  )

  // Once the session is known: only admins may clear the flag.
  const admin = loggedIn.value
  useEffect(() => {
    if (admin) clearNewFlag(book)
  }, [book, admin])

  // The next spreads are fetched and decoded before they are needed, the previous one too.
  useEffect(() => {
    if (mode === 'vertical') return
    const ahead = spreads.slice(at + 1, at + 1 + PRELOAD_SPREADS).flat()
    for (const i of [...ahead, ...(spreads[at - 1] ?? [])]) preloadPage(book.pages[i]!)
  }, [at, spreads, mode, book])

  // The bars hide after a while, unless hovered or a panel is open.
  useEffect(() => {
    if (!bars || panel) return
    const timer = setTimeout(() => hovering.current || setBars(false), HIDE_BARS_MS)
    return () => clearTimeout(timer)
  }, [bars, panel, poke])

  const bookmarks = useApi(() => listBookmarks(book), [book])
  const marks = bookmarks.data ?? []
  const bookmarked = marks.some((mark) => spread.includes(mark.page - 1))
  const toggleBookmark = () => {
    const target = page
    const action = bookmarked
      ? Promise.all(
          marks.filter((m) => spread.includes(m.page - 1)).map((m) => removeBookmark(book, m.page)),
        )
      : addBookmark(book, target)
    action.then(bookmarks.reload).catch(notifyError)
  }

  const shownPages = mode === 'vertical' ? [page - 1] : spread
  const position =
    count === 0 ? 'No pages' : `Page ${shownPages.map((i) => i + 1).join('–')} / ${count}`

  // What both stages show and how a tap on them is read.
  const stage = { pages: book.pages, fit, onZone }

  // Bars: hovering with a mouse shows them; a touch on hidden bars only shows them.
  const barEvents = {
    // In vertical mode the pages scroll under the bars too.
    onWheel: mode === 'vertical' ? wheelThrough(verticalStage) : undefined,
    onPointerEnter: (e: PointerEvent) => {
      if (e.pointerType !== 'mouse') return
      hovering.current = true
      setBars(true)
    },
    onPointerLeave: () => {
      hovering.current = false
      setPoke((n) => n + 1)
    },
    onFocusIn: () => {
      setBars(true)
      setPoke((n) => n + 1)
    },
    onClickCapture: (e: MouseEvent) => {
      if (bars) return
      e.stopPropagation()
      e.preventDefault()
      setBars(true)
    },
  }

  return (
    <div class={`reader${bars || panel ? '' : ' bars-hidden'}`}>
      {count === 0 ? (
        <p class="reader-empty" role="alert">
          This book has no pages to show.
        </p>
      ) : mode === 'vertical' ? (
        <VerticalStage
          {...stage}
          stage={verticalStage}
          page={page}
          jump={jump}
          onVisible={setPage}
        />
      ) : (
        <PagedStage
          {...stage}
          spread={spread}
          rtl={rtl}
          onSwipe={(towards) => side(towards === 'left' ? 'right' : 'left')}
        />
      )}
      <div class="reader-bar reader-bar-top" {...barEvents}>
        <TopBar
          title={book.title}
          position={position}
          panel={panel}
          bookmarked={bookmarked}
          canBookmark={loggedIn.value && count > 0}
          onPanel={setPanel}
          onBookmark={toggleBookmark}
          onClose={close}
        />
        {panel === 'toc' && <TocPanel book={book} page={page} onGo={go} />}
        {panel === 'bookmarks' && (
          <BookmarksPanel
            book={book}
            bookmarks={marks}
            canEdit={loggedIn.value}
            onGo={go}
            onChanged={bookmarks.reload}
          />
        )}
      </div>
      <div class="reader-bar reader-bar-bottom" {...barEvents}>
        {panel === 'pages' && <PagesStrip book={book} page={page} onGo={go} />}
        <BottomBar page={page} count={count} rtl={rtl} onGo={go} />
      </div>
    </div>
  )
}
