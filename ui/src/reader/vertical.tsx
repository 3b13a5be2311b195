// Webtoon mode: every page stacked in one scroll, images loaded as they come near. The page
// crossing the middle of the screen is the current one; a jump (`jump` changes) scrolls to `page`.
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks'
import type { Fit } from './prefs.ts'
import { zoneAt, type Zone } from './zones.ts'

const PIN_MS = 1500

type Props = {
  /** The scrolling box, for the reader (its bars hand the mouse wheel to it). */
  stage: { current: HTMLDivElement | null }
  pages: string[]
  page: number
  /** Bumped by the reader when it wants `page` scrolled into view. */
  jump: number
  fit: Fit
  onVisible: (page: number) => void
  onZone: (zone: Zone) => void
}

export function VerticalStage({ stage, pages, page, jump, fit, onVisible, onZone }: Props) {
  const visible = useRef(onVisible)
  visible.current = onVisible
  // After a jump, pages above the target finish loading and change height: the target is kept
  // in place until the reader scrolls by hand (or a moment has passed).
  const pinned = useRef<number | null>(null)
  const scrollTo = (n: number) =>
    stage.current?.querySelector(`[data-page="${n}"]`)?.scrollIntoView({ block: 'start' })
  const unpin = () => (pinned.current = null)

  useEffect(() => {
    const root = stage.current
    if (!root || typeof IntersectionObserver === 'undefined') return
    // A one-pixel line across the middle of the stage: the page under it is the one being read.
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries)
          if (entry.isIntersecting && pinned.current === null)
            visible.current(Number((entry.target as HTMLElement).dataset.page))
      },
      { root, rootMargin: '-50% 0px -50% 0px' },
    )
    for (const el of root.querySelectorAll('[data-page]')) observer.observe(el)
    return () => observer.disconnect()
  }, [pages])

  // In the commit that changes the page (and the address), so nothing scrolls in between.
  useLayoutEffect(() => {
    pinned.current = page
    scrollTo(page)
    const timer = setTimeout(unpin, PIN_MS)
    return () => clearTimeout(timer)
    // Only explicit jumps scroll; the page changing because of scrolling must not.
  }, [jump])

  return (
    <div
      ref={stage}
      class={`reader-stage reader-vertical fit-${fit}`}
      onClick={(e) => onZone(zoneAt(e, stage.current!))}
      onWheel={unpin}
      onTouchStart={unpin}
      onKeyDown={unpin}
    >
      {pages.map((url, i) => (
        <img
          key={url}
          data-page={i + 1}
          class="reader-page pending"
          src={url}
          alt={`Page ${i + 1}`}
          loading="lazy"
          draggable={false}
          onLoad={(e) => {
            ;(e.currentTarget as HTMLImageElement).classList.remove('pending')
            if (pinned.current !== null) scrollTo(pinned.current)
          }}
        />
      ))}
    </div>
  )
}
