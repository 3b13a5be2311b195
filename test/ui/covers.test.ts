// Covers on a fresh browser (issue 26 §6, cover paint): each cover is one load of its thumbnail.
// The cover used to fetch every thumbnail, drop the body, and only then render an <img> of the
// same URL (a second load, from the browser's cache): two loads and a script round trip per cover
// before it painted. Counted with the page's request events, which count cache loads too.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer } from '../helpers/server.ts'
import { browser, logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

const BOOKS = 8

const allCoversShown = (page: Page) =>
  page.waitForFunction((want) => {
    const imgs = [...document.querySelectorAll<HTMLImageElement>('.lib-card .cover img')]
    const skeletons = document.querySelectorAll('.lib-card .cover .skeleton').length
    return (
      imgs.length === want && skeletons === 0 && imgs.every((i) => i.complete && i.naturalWidth)
    )
  }, BOOKS)

function library(waitForThumbnails: boolean) {
  let app: TestServer | undefined
  useUiServer(
    {
      beforeStart: async (dir) => {
        await Promise.all(
          Array.from({ length: BOOKS }, (_, i) =>
            makeCbz(join(dir, `Cover ${i}.cbz`), { pages: 1, seed: 90 + i }),
          ),
        )
      },
    },
    async (started) => {
      app = started
      await app.idle()
      if (waitForThumbnails) await app.jobsDone()
    },
  )
  return () => app!
}

describe('covers, thumbnails made', () => {
  const app = library(true)
  uiTest('each cover is one load of its thumbnail', async (shot) => {
    // Logged in by cookie, so the library's first load is the one counted.
    const cookie = await app().login()
    const context = await (await browser()).newContext({ viewport: { width: 1280, height: 800 } })
    const { hostname } = new URL(app().url)
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=')
        return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: hostname, path: '/' }
      }),
    )
    const page = await context.newPage()
    shot.page = page
    const loads = new Map<string, number>()
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname
      if (path.endsWith('/thumbnail')) loads.set(path, (loads.get(path) ?? 0) + 1)
    })
    await page.goto(app().url + '/#/')
    await allCoversShown(page)
    expect(loads.size).toBe(BOOKS)
    expect([...loads.values()]).toEqual(Array(BOOKS).fill(1))
    await context.close()
  })
})

describe('covers the server makes on demand', () => {
  const app = library(true)
  uiTest('a page thumbnail answered 202 shows once made', async (shot) => {
    const ui = await openUi(app(), '#/login')
    shot.page = ui.page
    await logInThroughUi(app(), ui)
    // Page thumbnails are made when first asked: the cover chooser's first answers are 202s.
    const waits: string[] = []
    ui.page.on('response', (res) => {
      if (res.status() === 202 && new URL(res.url()).pathname.endsWith('/thumbnail'))
        waits.push(res.url())
    })
    const cookie = await app().login()
    const id = Object.values(await app().idsByTitle(cookie))[0]!
    await ui.page.goto(`${app().url}/#/archive/${id}`)
    await ui.page.getByRole('button', { name: 'Change cover' }).click()
    const chooser = ui.page.getByRole('button', { name: 'Use page 1 as the cover' })
    await chooser.locator('img').waitFor()
    await ui.page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.cover-choice .cover img')
      return (
        img !== null &&
        img.complete &&
        img.naturalWidth > 0 &&
        !document.querySelector('.cover-choice .skeleton')
      )
    })
    expect(waits.length).toBeGreaterThan(0)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
