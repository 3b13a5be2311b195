// The library view in a real browser: covers and the count, a namespaced search, tag suggestions,
// the category sidebar, a hostile title shown as text, and paging by infinite scroll.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

const XSS_TITLE = '<img src=x onerror="window.__xss=1">'
/** File name stem -> tags. Three by alice, two in the category, one renamed to XSS_TITLE. */
const BOOKS: Record<string, string> = {
  'Alpha Dawn': 'artist:alice, series:moonlight',
  'Bravo Dusk': 'artist:alice, language:english',
  'Charlie Noon': 'artist:alice',
  'Delta Rain': 'artist:bob, series:moonlight',
  'Echo Snow': 'artist:bob',
  'Foxtrot Wind': 'artist:bob',
  'Golf Mist': 'artist:carol',
  'Hotel Frost': 'artist:carol',
  'India Hail': 'artist:dave',
  'Juliet Storm': 'artist:dave',
  'Kilo Sun': 'artist:erin',
  'Hostile Title': 'artist:mallory',
}
const PER_PAGE = 5

describe('library view', () => {
  let app: TestServer
  const ids: Record<string, string> = {}
  useUiServer(
    {
      beforeStart: async (dir) => {
        await Promise.all(
          Object.keys(BOOKS).map((name, i) =>
            makeCbz(join(dir, `${name}.cbz`), { pages: 2, seed: 500 + i }),
          ),
        )
      },
    },
    async (started) => {
      app = started
      await app.idle()
      const cookie = await app.login()
      const all = await app.json('/api/search/archives?start=-1', { cookie })
      for (const hit of all.body.data as Wire[]) ids[hit.title] = hit.arcid
      for (const [title, tags] of Object.entries(BOOKS)) {
        const json = title === 'Hostile Title' ? { title: XSS_TITLE, tags } : { tags }
        const res = await app.json(`/api/archives/${ids[title]}/metadata`, {
          method: 'PUT',
          json,
          cookie,
        })
        expect(res.status).toBe(200)
      }
      const created = await app.json('/api/categories', {
        method: 'PUT',
        json: { name: 'Favourites', pinned: 'true' },
        cookie,
      })
      const category = created.body.category_id as string
      for (const title of ['Golf Mist', 'Kilo Sun']) {
        const res = await app.json(`/api/categories/${category}/${ids[title]}`, {
          method: 'PUT',
          cookie,
        })
        expect(res.status).toBe(200)
      }
      const set = await app.json('/api/settings', {
        method: 'PUT',
        json: { archives_per_page: PER_PAGE },
        cookie,
      })
      expect(set.status).toBe(200)
      await app.jobsDone()
    },
  )

  const titlesShown = (ui: { page: import('playwright-core').Page }) =>
    ui.page.locator('.lib-card-title').allTextContents()

  uiTest(
    'shows covers, the count, the hostile title as text, and pages on scroll',
    async (shot) => {
      const ui = await openUi(app)
      shot.page = ui.page
      await logInThroughUi(app, ui)
      await ui.page.getByText('12 archives').waitFor()
      // A real cover image, loaded (not the skeleton).
      const cover = ui.page.locator('.lib-card .cover img').first()
      await cover.waitFor()
      await ui.page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.lib-card .cover img')
        return img !== null && img.complete && img.naturalWidth > 0
      })
      // The hostile title is text, and its markup never ran.
      await ui.page.getByText(XSS_TITLE, { exact: true }).waitFor()
      expect(await ui.page.locator('.lib-grid img[src="x"]').count()).toBe(0)
      expect(await ui.page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined()
      // More than one page of PER_PAGE: infinite scroll (or the button) brings all twelve.
      await ui.page.locator('.lib-grid > .lib-card').nth(PER_PAGE).waitFor()
      for (let i = 0; i < 5 && (await ui.page.locator('.lib-card').count()) < 12; i++) {
        await ui.page.mouse.wheel(0, 5000)
        await ui.page
          .locator('.lib-card')
          .nth(11)
          .waitFor({ timeout: 2000 })
          .catch(() => {})
      }
      expect(await ui.page.locator('.lib-card').count()).toBe(12)
      expect(ui.page.url()).toContain('page=3')
      await expect(ui.page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0)
      expect(ui.errors).toEqual([])
      await ui.context.close()
    },
  )

  uiTest('a namespaced search narrows the grid, and the URL keeps it', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.getByText('12 archives').waitFor()
    await ui.page.getByRole('combobox', { name: 'Search' }).fill('artist:bob$')
    await ui.page.getByRole('button', { name: 'Search', exact: true }).click()
    await ui.page.getByText('3 of 12 archives').waitFor()
    expect((await titlesShown(ui)).sort()).toEqual(['Delta Rain', 'Echo Snow', 'Foxtrot Wind'])
    expect(decodeURIComponent(ui.page.url())).toContain('q=artist:bob$')
    // Back returns to the whole library.
    await ui.page.goBack()
    await ui.page.getByText('12 archives').waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('suggests tags while typing and choosing one searches for it', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.getByText('12 archives').waitFor()
    const box = ui.page.getByRole('combobox', { name: 'Search' })
    await box.pressSequentially('artist:ali', { delay: 20 })
    const list = ui.page.getByRole('listbox', { name: 'Suggestions' })
    await list.getByRole('option', { name: /artist:alice/ }).waitFor()
    expect(await box.getAttribute('aria-expanded')).toBe('true')
    await box.press('ArrowDown')
    expect(await box.getAttribute('aria-activedescendant')).toBeTruthy()
    await box.press('Enter')
    await ui.page.getByText('3 of 12 archives').waitFor()
    expect(await box.inputValue()).toBe('artist:alice$')
    expect((await titlesShown(ui)).sort()).toEqual(['Alpha Dawn', 'Bravo Dusk', 'Charlie Noon'])
    // Escape closes the list.
    await box.fill('series:moo')
    await list.getByRole('option', { name: /series:moonlight/ }).waitFor()
    await box.press('Escape')
    await list.waitFor({ state: 'hidden' })
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('the category sidebar and the tag cloud filter the grid', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.getByText('12 archives').waitFor()
    const categories = ui.page.getByRole('navigation', { name: 'Categories' })
    await categories.getByRole('button', { name: /Favourites/ }).click()
    await ui.page.getByText('2 of 12 archives').waitFor()
    expect((await titlesShown(ui)).sort()).toEqual(['Golf Mist', 'Kilo Sun'])
    // Random picks within the current filters and opens the reader.
    await ui.page.getByRole('button', { name: 'Random' }).click()
    await ui.page.waitForURL(/#\/reader\//)
    // The reader may already have put its page in the address (`?page=1`): the id is before it.
    const picked = decodeURIComponent(
      new URL(ui.page.url()).hash.split('/')[2]?.split('?')[0] ?? '',
    )
    expect([ids['Golf Mist'], ids['Kilo Sun']]).toContain(picked)
    await ui.page.goBack()
    await categories.getByRole('button', { name: 'All archives' }).click()
    await ui.page.getByText('12 archives').waitFor()
    await ui.page
      .getByRole('region', { name: 'Popular tags' })
      .getByRole('button', { name: 'series:moonlight' })
      .click()
    await ui.page.getByText('2 of 12 archives').waitFor()
    expect((await titlesShown(ui)).sort()).toEqual(['Alpha Dawn', 'Delta Rain'])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
