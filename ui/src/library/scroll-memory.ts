// Where the library was scrolled to, so coming back from the reader (Back, or its close button)
// shows the same covers: the library is unmounted while a book is open and its results are asked
// for again, so the browser's own scroll restoration runs against an empty grid. The place is kept
// in sessionStorage (a reload of the reader keeps it too) under the library's address, which holds
// the search and how many pages were loaded; it is restored once that many pages are shown again.
import { useEffect, useRef } from 'preact/hooks'

const KEY = 'tankobun.library-place'

type Place = { href: string; y: number }

const isLibraryHash = (hash: string) => hash === '' || hash === '#/' || hash.startsWith('#/?')

function readPlace(): Place | null {
  try {
    const place = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Place | null
    return place && typeof place.href === 'string' && typeof place.y === 'number' ? place : null
  } catch {
    return null
  }
}

function writePlace(place: Place): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(place))
  } catch {
    // Storage full or denied: the library opens at the top, as before.
  }
}

/** The library's last address, for the reader's close button (the library itself, by default). */
export function lastLibraryHref(): string {
  return readPlace()?.href ?? '#/'
}

/**
 * Records the library's scroll position while it is shown, and scrolls back to the recorded one
 * once `ready` (the pages named in the address are shown) when the address is the recorded one.
 */
export function useScrollMemory(ready: boolean): void {
  const pending = useRef<Place | null>(null)
  if (pending.current === null) {
    const place = readPlace()
    pending.current =
      place && place.href === location.hash && place.y > 0 ? place : { href: '', y: 0 }
  }

  // The address as of the last render: it changes as pages load, and is gone by the cleanup.
  const href = useRef('')
  if (isLibraryHash(location.hash)) href.current = location.hash

  useEffect(() => {
    let y = scrollY
    const onScroll = () => {
      // Scroll events of the page that replaced the library arrive after it is gone: ignored.
      if (isLibraryHash(location.hash)) y = scrollY
    }
    addEventListener('scroll', onScroll, { passive: true })
    return () => {
      removeEventListener('scroll', onScroll)
      writePlace({ href: href.current, y })
    }
  }, [])

  useEffect(() => {
    const target = pending.current
    if (!ready || !target || target.y === 0) return
    pending.current = { href: '', y: 0 }
    scrollTo(0, target.y)
  }, [ready])
}
