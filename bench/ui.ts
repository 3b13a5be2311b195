// The web UI's speed targets (issue 15), in the headless Chromium the UI tests use, against a
// server in this process on loopback:
// - bundle: the built UI's size, gzipped (target under 200 KB);
// - library: from navigation start until the first page of 100 cards is in the grid, and until
//   every cover in the viewport is painted (target under 1 s), with a cold browser cache and warm;
// - page turn: from the key press until the next page's image is shown decoded (target under
//   50 ms), after the reader had its moment to preload.
// Run: bun bench/ui.ts [archives=100] [turns=60]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { startServer } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import { buildUi } from '../ui/build.ts'
import { launchChromium } from '../test/ui/chromium.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'
import { writeSmallLibrary } from './small-library.ts'

const ARCHIVES = Number(process.argv[2] ?? 100)
const TURNS = Number(process.argv[3] ?? 60)
setLogLevel('error')

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN
const ms = (x: number) => `${x.toFixed(1)} ms`
const summary = (xs: number[]) =>
  `p50 ${ms(percentile(xs, 0.5))}, p95 ${ms(percentile(xs, 0.95))} (${xs.length} runs)`

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-ui-'))
try {
  const bundle = await buildUi(join(root, 'ui'))
  console.log(
    `bundle: ${bundle.files.length} files, ${(bundle.bytes / 1024).toFixed(1)} KB, ` +
      `${(bundle.gzipBytes / 1024).toFixed(1)} KB gzipped`,
  )

  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  await writeSmallLibrary(content, ARCHIVES)
  const server = await startServer(benchConfig(root, content))
  const browser = await launchChromium()
  try {
    await server.contentSync.idle()
    // Covers are made after the scan: the library bench measures showing them, not making them.
    for (let i = 0; i < 1200; i++) {
      const live = server.deps.jobs.list().some((j) => j.state === 'queued' || j.state === 'active')
      if (!live) break
      await Bun.sleep(250)
    }
    const cookie = await sessionCookie(server.url)
    const { hostname } = new URL(server.url)
    const session = async (): Promise<BrowserContext> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      await context.addCookies(
        cookie.split('; ').map((pair) => {
          const at = pair.indexOf('=')
          return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: hostname, path: '/' }
        }),
      )
      return context
    }

    // Library: times read in the page, from its navigation start (performance.now()).
    const perPage = Math.min(ARCHIVES, 100)
    const gridAt: number[] = []
    const coversAt: number[] = []
    const warmGridAt: number[] = []
    const warmCoversAt: number[] = []
    /** Thumbnails from the server per cover in view, cold/warm (a cover should cost one, or none). */
    const requestsPerCover: Record<string, number[]> = { cold: [], warm: [] }
    /** Thumbnail loads (from the server or the browser's cache) per cover in view. */
    const loadsPerCover: number[] = []
    const measureLibrary = async (context: BrowserContext, grid: number[], covers: number[]) => {
      const page = await context.newPage()
      // Answers that came from the server, not the browser's cache (Playwright's request events
      // count cache hits too): Chromium's own network events say which.
      let thumbnailRequests = 0
      let thumbnailLoads = 0
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.endsWith('/thumbnail')) thumbnailLoads++
      })
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      cdp.on('Network.responseReceived', (event) => {
        const { url, fromDiskCache, fromPrefetchCache } = event.response
        if (fromDiskCache || fromPrefetchCache) return
        if (new URL(url).pathname.endsWith('/thumbnail')) thumbnailRequests++
      })
      await page.goto(`${server.url}/#/`)
      grid.push(
        await page.evaluate(
          (want) =>
            new Promise<number>((resolve) => {
              const check = () =>
                document.querySelectorAll('.lib-card:not(.lib-card-skeleton)').length >= want
                  ? resolve(performance.now())
                  : requestAnimationFrame(check)
              check()
            }),
          perPage,
        ),
      )
      covers.push(
        await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const inView = (el: Element) => {
                const box = el.getBoundingClientRect()
                return box.bottom > 0 && box.top < innerHeight
              }
              const check = () => {
                const visible = [...document.querySelectorAll('.lib-card .cover')].filter(inView)
                const done = visible.every((cover) => {
                  const img = cover.querySelector('img')
                  return img !== null && img.complete && img.naturalWidth > 0
                })
                if (visible.length > 0 && done) resolve(performance.now())
                else requestAnimationFrame(check)
              }
              check()
            }),
        ),
      )
      const inView = await page.evaluate(
        () =>
          [...document.querySelectorAll('.lib-card .cover img')].filter((el) => {
            const box = el.getBoundingClientRect()
            return box.bottom > 0 && box.top < innerHeight
          }).length,
      )
      // Covers just outside the view load too (the observer's margin): counted against those in it.
      await page.waitForTimeout(500)
      requestsPerCover[grid === gridAt ? 'cold' : 'warm']!.push(thumbnailRequests / inView)
      loadsPerCover.push(thumbnailLoads / inView)
      await page.close()
    }
    for (let run = 0; run < 10; run++) {
      const context = await session()
      await measureLibrary(context, gridAt, coversAt)
      await measureLibrary(context, warmGridAt, warmCoversAt)
      await context.close()
    }
    console.log(`library, ${perPage} cards, cold cache: grid ${summary(gridAt)}`)
    console.log(`library, ${perPage} cards, cold cache: covers in view ${summary(coversAt)}`)
    console.log(`library, warm cache: grid ${summary(warmGridAt)}`)
    console.log(`library, warm cache: covers in view ${summary(warmCoversAt)}`)
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
    console.log(
      `thumbnails from the server per cover in view (with those in the margin below it): ` +
        `cold ${mean(requestsPerCover.cold!).toFixed(2)}, warm ${mean(requestsPerCover.warm!).toFixed(2)}; ` +
        `loads (server or cache) ${mean(loadsPerCover).toFixed(2)}`,
    )

    // Page turns: the next page is preloaded and decoded by the reader while the current one shows.
    const ids = (
      (await (await fetch(`${server.url}/api/archives`, { headers: { cookie } })).json()) as {
        arcid: string
        pagecount: number
      }[]
    ).sort((a, b) => b.pagecount - a.pagecount)
    const turns: number[] = []
    const context = await session()
    const page = await context.newPage()
    for (const archive of ids) {
      if (turns.length >= TURNS) break
      await page.goto(`${server.url}/#/reader/${archive.arcid}?page=1`)
      await page.waitForSelector('.reader-paged img.reader-page')
      for (let p = 1; p < archive.pagecount && turns.length < TURNS; p++) {
        // The reader's preload has a moment, as a reader looking at a page gives it.
        await page.waitForTimeout(300)
        turns.push(
          await page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                const shown = () =>
                  document.querySelector<HTMLImageElement>('.reader-paged img.reader-page')
                const before = shown()?.src
                const started = performance.now()
                document.dispatchEvent(
                  new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }),
                )
                const check = () => {
                  const img = shown()
                  if (img && img.src !== before && img.complete && img.naturalWidth > 0)
                    resolve(performance.now() - started)
                  else requestAnimationFrame(check)
                }
                check()
              }),
          ),
        )
      }
    }
    await context.close()
    console.log(`page turn to a preloaded page: ${summary(turns)}`)
  } finally {
    await browser.close()
    await server.stop()
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
