// Coming back to the library from a book (issue 26 §6): Back and the reader's close button both
// show the grid scrolled where it was left, with the same pages loaded.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

const BOOKS = 40
const PER_PAGE = 10

/** Scrolls until every archive is in the grid, then to `y`; returns where the window settled. */
async function scrollDeep(page: Page, y: number): Promise<number> {
  for (let i = 0; i < 20 && (await page.locator('.lib-card').count()) < BOOKS; i++) {
    await page.mouse.wheel(0, 4000)
    await page.waitForTimeout(200)
  }
  expect(await page.locator('.lib-card').count()).toBe(BOOKS)
  await page.evaluate((to) => scrollTo(0, to), y)
  await page.waitForFunction((to) => Math.abs(scrollY - to) < 2, y)
  return page.evaluate(() => scrollY)
}

/** A card in the middle of the screen (so clicking it needs no scrolling). */
async function openCardInView(page: Page) {
  const index = await page.evaluate(() => {
    const cards = [...document.querySelectorAll('.lib-card-open')]
    return cards.findIndex((card) => {
      const box = card.getBoundingClientRect()
      return box.top > 100 && box.bottom < innerHeight - 50
    })
  })
  expect(index).toBeGreaterThanOrEqual(0)
  await page.locator('.lib-card-open').nth(index).click()
  await page.locator('.reader').waitFor()
}

const settlesAt = (page: Page, y: number) =>
  page.waitForFunction(
    (to) => document.querySelectorAll('.lib-card').length > 0 && Math.abs(scrollY - to) < 2,
    y,
  )

describe('back to the library', () => {
  let app: TestServer
  useUiServer(
    {
      beforeStart: async (dir) => {
        await Promise.all(
          Array.from({ length: BOOKS }, (_, i) =>
            makeCbz(join(dir, `Book ${String(i).padStart(2, '0')}.cbz`), { pages: 1, seed: i }),
          ),
        )
      },
    },
    async (started) => {
      app = started
      await app.idle()
      const cookie = await app.login()
      const set = await app.json('/api/settings', {
        method: 'PUT',
        json: { archives_per_page: PER_PAGE },
        cookie,
      })
      expect(set.status).toBe(200)
    },
  )

  uiTest('keeps the scroll position through Back and the reader close button', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.locator('.lib-card-title').first().waitFor()
    const y = await scrollDeep(ui.page, 900)
    expect(y).toBeGreaterThan(800)

    await openCardInView(ui.page)
    await ui.page.goBack()
    await settlesAt(ui.page, y)

    await openCardInView(ui.page)
    await ui.page.getByRole('button', { name: 'Close reader' }).click()
    await settlesAt(ui.page, y)
    expect(await ui.page.locator('.lib-card').count()).toBeGreaterThanOrEqual(BOOKS - PER_PAGE)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
