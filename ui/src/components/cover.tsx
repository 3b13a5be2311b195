// A cover (or page thumbnail) that loads when it scrolls into view. The server answers 202 while
// it makes the thumbnail: a skeleton shows meanwhile and the request is retried with backoff.
import { useEffect, useRef, useState } from 'preact/hooks'

type Props = { src: string; alt: string; class?: string }

/** One shared observer for every cover on the page. */
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

export function Cover({ src, alt, class: className }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const [ready, setReady] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    setReady(null)
    setFailed(false)
    const url = src + (src.includes('?') ? '&' : '?') + 'no_fallback=true'
    const load = async (attempt: number) => {
      try {
        const res = await fetch(url, { credentials: 'same-origin' })
        if (stopped) return
        if (res.status === 202 && attempt < 30) {
          timer = setTimeout(() => load(attempt + 1), Math.min(250 * 2 ** attempt, 3000))
          return
        }
        if (!res.ok) return setFailed(true)
        // Drop the body: the <img> below reads the same URL from the browser's cache.
        await res.body?.cancel()
        setReady(url)
      } catch {
        if (!stopped) setFailed(true)
      }
    }
    const el = box.current
    if (!el || !observer) load(0)
    else {
      watchers.set(el, () => load(0))
      observer.observe(el)
    }
    return () => {
      stopped = true
      clearTimeout(timer)
      if (el) observer?.unobserve(el)
    }
  }, [src])

  return (
    <div ref={box} class={`cover ${className ?? ''}`}>
      {ready ? (
        <img src={ready} alt={alt} decoding="async" />
      ) : (
        <div
          class={failed ? 'cover-missing' : 'skeleton'}
          aria-label={failed ? 'No cover' : 'Loading cover'}
        />
      )}
    </div>
  )
}
