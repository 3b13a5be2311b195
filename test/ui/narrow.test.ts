// Every page on a 320 px wide phone (issue 26 §6): nothing wider than the screen, so the page
// never scrolls sideways, and the main navigation and the reader's controls keep every item on
// screen (they used to be one sideways-scrolling row with half their items off it).
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { browser, logInThroughUi, uiTest, useUiServer, type UiPage } from './browser.ts'

const WIDTH = 320
const LONG_TAGS = Array.from({ length: 40 }, (_, i) => `parody:a rather long series name ${i}`)

/** How far the page scrolls sideways, and the widest elements (for the failure message). */
function overflow(page: Page) {
  return page.evaluate((width) => {
    const doc = document.scrollingElement!
    /** Sticking out and not inside a box that clips or scrolls it. */
    const sticksOut = (el: HTMLElement) => {
      if (el.getBoundingClientRect().right <= width + 0.5) return false
      for (let up = el.parentElement; up; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== 'visible') return false
      return true
    }
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter(sticksOut)
      .slice(-5)
      .map(
        (el) => `${el.tagName.toLowerCase()}.${el.className} ${el.getBoundingClientRect().right}`,
      )
    return { scrollWidth: doc.scrollWidth, wide }
  }, WIDTH)
}

/** Items (links, buttons) under `selector` whose box is not wholly on screen. */
function offScreen(page: Page, selector: string) {
  return page.evaluate(
    ([sel, width]) =>
      [...document.querySelectorAll<HTMLElement>(sel)]
        .filter((el) => {
          const box = el.getBoundingClientRect()
          return box.left < -0.5 || box.right > width + 0.5
        })
        .map((el) => el.textContent),
    [selector, WIDTH] as const,
  )
}

describe('a 320 px screen', () => {
  let app: TestServer
  const pages: [name: string, hash: string, ready: string][] = []
  useUiServer(
    {
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'A title long enough to need wrapping on a phone.cbz'), {
          pages: 3,
        })
      },
    },
    async (started) => {
      app = started
      await app.idle()
      const cookie = await app.login()
      const ids = await app.idsByTitle(cookie)
      const id = Object.values(ids)[0]!
      const tags = LONG_TAGS.join(', ')
      await app.json(`/api/archives/${id}/metadata`, { method: 'PUT', json: { tags }, cookie })
      // A token with a long name fills the tokens table.
      const token = await app.json('/api/tokens', {
        method: 'POST',
        json: { name: 'my e-reader in the living room', role: 'guest' },
        cookie,
      })
      expect(token.status).toBe(200)
      const cat = await app.json('/api/categories', {
        method: 'PUT',
        json: { name: 'A category with a long name' },
        cookie,
      })
      const tank = await app.req('/api/tankoubons', {
        method: 'PUT',
        cookie,
        body: new URLSearchParams({ name: 'A Tankoubon with a long name' }),
      })
      const tankId = ((await tank.json()) as Wire).tankoubon_id as string
      expect(cat.status).toBe(200)
      pages.push(
        ['library', '#/', '.lib-card-title'],
        ['login', '#/login', 'h1, .login'],
        ['tags', '#/tags', '.tags-group'],
        ['archive', `#/archive/${id}`, '[aria-label="Plugin to run"]'],
        ['upload', '#/upload', 'h1'],
        ['downloads', '#/downloads', 'h1'],
        ['categories', '#/categories', 'text=A category with a long name'],
        ['tankoubons', '#/tankoubons', 'text=A Tankoubon with a long name'],
        ['tankoubon', `#/tankoubons/${tankId}`, 'h1'],
        ['plugins', '#/plugins', 'h1'],
        ['jobs', '#/jobs', 'h1'],
        ['maintenance', '#/maintenance', 'h1'],
        ['settings', '#/settings', 'table[aria-label="API tokens"] td'],
        ['reader', `#/reader/${id}`, '.reader-top'],
      )
    },
  )

  async function phone(): Promise<UiPage> {
    const context = await (
      await browser()
    ).newContext({
      viewport: { width: WIDTH, height: 640 },
      isMobile: true,
      hasTouch: true,
    })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.setDefaultTimeout(10_000)
    await page.goto(app.url + '/')
    return { page, context, errors }
  }

  uiTest(
    'no page scrolls sideways, and the navigation and reader controls are on screen',
    async (shot) => {
      const ui = await phone()
      shot.page = ui.page
      await logInThroughUi(app, ui)
      const wide: Record<string, unknown> = {}
      for (const [name, hash, ready] of pages) {
        await ui.page.goto(app.url + '/' + hash)
        await ui.page.locator(ready).first().waitFor({ state: 'attached' })
        // Whatever else the view loads is in place.
        await ui.page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'))
        const found = await overflow(ui.page)
        if (found.scrollWidth > WIDTH) wide[name] = found
      }
      expect(wide).toEqual({})

      await ui.page.goto(app.url + '/#/')
      await ui.page.locator('.lib-card-title').first().waitFor()
      expect(await offScreen(ui.page, 'nav[aria-label="Main"] a, .topbar-end > *')).toEqual([])
      await ui.page.goto(app.url + '/' + pages.at(-1)![1])
      await ui.page.locator('.reader-top').waitFor()
      expect(await offScreen(ui.page, '.reader-top button')).toEqual([])
      expect(ui.errors).toEqual([])
      await ui.context.close()
    },
    120_000,
  )
})
