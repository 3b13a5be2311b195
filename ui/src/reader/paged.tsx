// Single and double page view: the current spread, click zones (thirds) and horizontal swipes.
// Which way a zone or swipe goes is the reader's business (right-to-left flips it).
import { useEffect, useRef, useState } from 'preact/hooks'
import type { Fit } from './prefs.ts'
import { zoneAt, type Zone } from './zones.ts'

/** A swipe is a mostly horizontal move of at least this many CSS pixels. */
const SWIPE_PX = 50

type Props = {
  pages: string[]
  spread: number[]
  rtl: boolean
  fit: Fit
  onZone: (zone: Zone) => void
  /** The side the finger moved towards. */
  onSwipe: (towards: 'left' | 'right') => void
}

export function PagedStage({ pages, spread, rtl, fit, onZone, onSwipe }: Props) {
  const stage = useRef<HTMLDivElement>(null)
  const down = useRef<{ x: number; y: number; id: number } | null>(null)
  // The click that ends a swipe must not also count as a tap on a zone.
  const swiped = useRef(false)
  const shown = rtl ? [...spread].reverse() : spread
  const [failed, setFailed] = useState<Set<string>>(new Set())

  // A new spread starts at its top (fit width and original size scroll).
  useEffect(() => stage.current?.scrollTo(0, 0), [spread[0]])

  const onPointerDown = (e: PointerEvent) => {
    down.current = { x: e.clientX, y: e.clientY, id: e.pointerId }
    swiped.current = false
  }
  const onPointerUp = (e: PointerEvent) => {
    const start = down.current
    down.current = null
    if (!start || start.id !== e.pointerId) return
    const dx = e.clientX - start.x
    const dy = e.clientY - start.y
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(dy) * 1.5) {
      swiped.current = true
      onSwipe(dx < 0 ? 'left' : 'right')
    }
  }
  const onClick = (e: MouseEvent) => {
    if (swiped.current) return void (swiped.current = false)
    onZone(zoneAt(e, stage.current!))
  }

  return (
    <div
      ref={stage}
      class={`reader-stage reader-paged fit-${fit}`}
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (down.current = null)}
      onClick={onClick}
    >
      <div class="reader-spread" style={{ '--n': String(shown.length) }}>
        {shown.map((i) =>
          failed.has(pages[i]!) ? (
            <p key={pages[i]} class="reader-failed" role="alert">
              Page {i + 1} could not be loaded.
            </p>
          ) : (
            <img
              key={pages[i]}
              class="reader-page"
              src={pages[i]}
              alt={`Page ${i + 1}`}
              draggable={false}
              onError={() => setFailed((f) => new Set(f).add(pages[i]!))}
            />
          ),
        )}
      </div>
    </div>
  )
}
