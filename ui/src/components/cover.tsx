// A cover (or page thumbnail): an <img>, made when its box nears the view, over a skeleton. The thumbnail URL is asked with `no_fallback=true`, so while the server still makes it
// the answer is a 202 (not an image) and the <img> fails: the cover then asks once by fetch what
// the status was, waits with backoff while it is 202, and tries the <img> again.
//
// It used to fetch every thumbnail first and only then render an <img> of the same URL: two loads
// (the second from the browser's cache) and a script round trip per cover before any painted,
// which on a busy machine was most of the seconds a fresh library took to show its covers.
import { useEffect, useRef, useState } from 'preact/hooks'

type Props = { src: string; alt: string; class?: string }

const MAX_ATTEMPTS = 30

type State = 'loading' | 'shown' | 'waiting' | 'failed'

/**
 * One shared observer for every cover on the page: an <img> is made when its box comes within
 * 400 px of the view. The browser's own `loading="lazy"` starts much further away (all 100 covers
 * of a library page were fetched, four times those in view, competing with them).
 */
const watchers = new WeakMap<Element, () => void>()
const observer =
  typeof IntersectionObserver === 'undefined'
    ? null
    : new IntersectionObserver(
        (entries) => {
          for (const entry of entries)
            if (entry.isIntersecting) {
              observer?.unobserve(entry.target)
              watchers.get(entry.target)?.()
            }
        },
        { rootMargin: '400px' },
      )

/** Whether the element has come near the view (always, without IntersectionObserver). */
function useNear(box: { current: Element | null }): boolean {
  const [near, setNear] = useState(observer === null)
  useEffect(() => {
    const el = box.current
    if (!el || !observer || near) return
    watchers.set(el, () => setNear(true))
    observer.observe(el)
    return () => observer.unobserve(el)
  }, [box, near])
  return near
}

export function Cover({ src, alt, class: className }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const near = useNear(box)
  const url = src + (src.includes('?') ? '&' : '?') + 'no_fallback=true'
  // Kept with the src it is for: a new src starts afresh in the same render (an effect resetting
  // it would run after a cached image had already loaded, and leave its skeleton up).
  const [current, setCurrent] = useState<{ src: string; attempt: number; state: State }>({
    src,
    attempt: 0,
    state: 'loading',
  })
  const fresh = current.src === src ? current : { src, attempt: 0, state: 'loading' as State }
  const { attempt, state } = fresh
  const setState = (next: State) =>
    setCurrent((old) => ({ ...(old.src === src ? old : fresh), state: next }))

  // After a failed <img>: a 202 is waited out; anything else is a missing cover.
  useEffect(() => {
    if (state !== 'waiting') return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    fetch(url, { credentials: 'same-origin' })
      .then(async (res) => {
        await res.body?.cancel()
        if (stopped) return
        if (res.status !== 202) return setState(res.ok ? 'loading' : 'failed')
        if (attempt >= MAX_ATTEMPTS) return setState('failed')
        timer = setTimeout(
          () =>
            setCurrent((old) =>
              old.src === src ? { src, attempt: old.attempt + 1, state: 'loading' } : old,
            ),
          Math.min(250 * 2 ** attempt, 3000),
        )
      })
      .catch(() => !stopped && setState('failed'))
    return () => {
      stopped = true
      clearTimeout(timer)
    }
    // `src` comes with `url`; `setState` is new each render and only writes through setCurrent.
  }, [state, url, attempt])

  return (
    <div ref={box} class={`cover ${className ?? ''}`}>
      {state !== 'shown' && (
        <div
          class={state === 'failed' ? 'cover-missing' : 'skeleton'}
          aria-label={state === 'failed' ? 'No cover' : 'Loading cover'}
        />
      )}
      {near && state !== 'failed' && state !== 'waiting' && (
        <img
          key={attempt}
          src={url}
          alt={alt}
          decoding="async"
          onLoad={() => setState('shown')}
          onError={() => setState('waiting')}
        />
      )}
    </div>
  )
}
