// After navigating, focus goes to the new view: its main heading, or the main region while the
// heading has not loaded. A screen reader then announces the page, and Tab starts from it instead
// of from a link that is gone. Not on the first load (the browser starts at the top), and not
// when only the query changes (a search typed into the library, the reader's `?page=`).
import type { RefObject } from 'preact'
import { useEffect, useRef } from 'preact/hooks'

const FIELDS = new Set(['INPUT', 'TEXTAREA', 'SELECT'])

export function useViewFocus(main: RefObject<HTMLElement | null>, view: string) {
  const shown = useRef(view)
  useEffect(() => {
    if (shown.current === view) return
    shown.current = view
    const region = main.current
    if (!region) return
    // A view that put the cursor in a field itself keeps it there.
    const active = document.activeElement
    if (active && region.contains(active) && FIELDS.has(active.tagName)) return
    const heading = region.querySelector<HTMLElement>('h1')
    const target = heading ?? region
    // Focusable by script only; no scroll, so a restored scroll position stays.
    if (!target.hasAttribute('tabindex')) target.tabIndex = -1
    target.focus({ preventScroll: true })
  }, [view])
}
