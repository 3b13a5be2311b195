// Pages decoded ahead of the reader: a page turn then paints an image the browser already holds
// decoded. A few entries only: full pages are large in memory.
const MAX_ENTRIES = 8
const cache = new Map<string, HTMLImageElement>()

export function preloadPage(url: string): void {
  const known = cache.get(url)
  if (known) {
    // Most recently wanted goes last, so the oldest is dropped first.
    cache.delete(url)
    cache.set(url, known)
    return
  }
  const img = new Image()
  img.decoding = 'async'
  img.src = url
  img.decode().catch(() => {
    // A page that fails here fails again in the view, which shows it.
    cache.delete(url)
  })
  cache.set(url, img)
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!)
}
