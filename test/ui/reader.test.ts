// The reader in a real browser: pages turn with keys and click zones, right-to-left flips the
// arrows, double page pairs pages (cover alone or not) and shows a wide page alone, bookmarks get names, progress reaches the
// server, and a Tankoubon reads across its members.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { buildZip, makeCbz, makeJpeg } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer, until } from './browser.ts'

/** Waits until the paged view shows exactly these pages (entry names), left to right. */
async function shows(page: Page, names: string[]) {
  await page.waitForFunction(
    (want) => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>('.reader-paged img')]
      const got = imgs.map((img) => new URL(img.src).searchParams.get('path'))
      return JSON.stringify(got) === JSON.stringify(want)
    },
    names,
    { timeout: 10_000 },
  )
}

/** Clicks the stage at a fraction of its width, mid-height (below the top bar). */
async function tap(page: Page, fraction: number) {
  const box = (await page.locator('.reader-stage').boundingBox())!
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height * 0.6)
}

/** A horizontal drag across the stage (pointer events, as a finger's swipe). */
async function swipe(page: Page, from: number, to: number) {
  const box = (await page.locator('.reader-stage').boundingBox())!
  const y = box.y + box.height * 0.6
  await page.mouse.move(box.x + box.width * from, y)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width * to, y, { steps: 5 })
  await page.mouse.up()
}

describe('reader', () => {
  let app: TestServer
  let cookie: string
  const ids: Record<string, string> = {}
  let tank = ''

  useUiServer(
    {
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'Six Pages.cbz'), { pages: 6, width: 20, height: 30 })
        await makeCbz(join(dir, 'Volume 1.cbz'), { pages: 2, width: 22, height: 30 })
        await makeCbz(join(dir, 'Volume 2.cbz'), { pages: 2, width: 24, height: 30 })
        // Page 3 is a two-page spread scanned as one image.
        const pages = await Promise.all(
          [1, 2, 3, 4, 5, 6].map(async (n) => ({
            name: `00${n}.jpg`,
            data: await makeJpeg(n === 3 ? 60 : 20, 30, 700 + n),
          })),
        )
        await Bun.write(join(dir, 'Wide Third.cbz'), buildZip(pages))
      },
    },
    async (started) => {
      app = started
      await app.idle()
      cookie = await app.login()
      Object.assign(ids, await app.idsByTitle(cookie))
      const created = await app.req('/api/tankoubons', {
        method: 'PUT',
        cookie,
        body: new URLSearchParams({ name: 'Both volumes' }),
      })
      tank = ((await created.json()) as Wire).tankoubon_id
      for (const title of ['Volume 1', 'Volume 2'])
        await app.json(`/api/tankoubons/${tank}/${ids[title]}`, { method: 'PUT', cookie })
    },
  )

  uiTest('turns pages with keys and click zones, saves and resumes progress', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    const id = ids['Six Pages']!
    await ui.page.goto(`${app.url}/#/reader/${id}`)
    await shows(ui.page, ['001.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['002.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['003.jpg'])
    await ui.page.keyboard.press('ArrowLeft')
    await shows(ui.page, ['002.jpg'])
    await tap(ui.page, 0.9)
    await shows(ui.page, ['003.jpg'])
    await tap(ui.page, 0.1)
    await shows(ui.page, ['002.jpg'])
    // A swipe towards the left turns forward (and is not also a tap on a zone).
    await swipe(ui.page, 0.6, 0.3)
    await shows(ui.page, ['003.jpg'])
    await swipe(ui.page, 0.3, 0.6)
    await shows(ui.page, ['002.jpg'])
    await ui.page.keyboard.press('End')
    await shows(ui.page, ['006.jpg'])
    await ui.page.keyboard.press('Home')
    await shows(ui.page, ['001.jpg'])
    await ui.page.keyboard.press('PageDown')
    await ui.page.keyboard.press('PageDown')
    await ui.page.keyboard.press('PageDown')
    await shows(ui.page, ['004.jpg'])
    expect(ui.page.url()).toContain('page=4')
    await until(
      async () => (await app.json(`/api/archives/${id}/metadata`, { cookie })).body,
      (meta) => meta.progress === 4,
    )
    // Opening again without ?page= resumes there; Escape goes back to the library.
    await ui.page.goto(`${app.url}/#/`)
    await ui.page.goto(`${app.url}/#/reader/${id}`)
    await shows(ui.page, ['004.jpg'])
    await ui.page.keyboard.press('Escape')
    await ui.page.waitForFunction(() => location.hash === '#/')
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('right-to-left flips the arrows; double page pairs pages, cover alone', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(`${app.url}/#/reader/${ids['Six Pages']}?page=1`)
    await shows(ui.page, ['001.jpg'])
    await ui.page.getByRole('button', { name: 'Right to left' }).click()
    await ui.page.keyboard.press('ArrowLeft')
    await shows(ui.page, ['002.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['001.jpg'])
    await ui.page.getByRole('button', { name: 'Double' }).click()
    // Cover alone (the default): page 1 by itself, then 2-3 shown right to left.
    await shows(ui.page, ['001.jpg'])
    await ui.page.keyboard.press('ArrowLeft')
    await shows(ui.page, ['003.jpg', '002.jpg'])
    await ui.page.getByRole('button', { name: 'Right to left' }).click()
    await shows(ui.page, ['002.jpg', '003.jpg'])
    await ui.page.getByRole('button', { name: 'Cover alone' }).click()
    await ui.page.keyboard.press('Home')
    await shows(ui.page, ['001.jpg', '002.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['003.jpg', '004.jpg'])
    // The choice is remembered by the browser.
    await ui.page.reload()
    await shows(ui.page, ['003.jpg', '004.jpg'])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('double page shows a wide page alone and pairs again after it', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(`${app.url}/#/reader/${ids['Wide Third']}?page=1`)
    await shows(ui.page, ['001.jpg'])
    const sizes = ui.page.waitForResponse((res) => res.url().includes('/page-dimensions'))
    await ui.page.getByRole('button', { name: 'Double' }).click()
    await sizes
    // Cover alone: 1, then 2 alone (its partner would be the wide 3), 3, 4-5, 6.
    const forward = [['001.jpg'], ['002.jpg'], ['003.jpg'], ['004.jpg', '005.jpg'], ['006.jpg']]
    for (const [i, names] of forward.entries()) {
      if (i > 0) await ui.page.keyboard.press('ArrowRight')
      await shows(ui.page, names)
    }
    for (const names of [...forward].reverse().slice(1)) {
      await ui.page.keyboard.press('ArrowLeft')
      await shows(ui.page, names)
    }
    // Without the cover alone: 1-2, 3, 4-5, 6; right to left only flips a pair.
    await ui.page.getByRole('button', { name: 'Cover alone' }).click()
    await shows(ui.page, ['001.jpg', '002.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['003.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['004.jpg', '005.jpg'])
    await ui.page.getByRole('button', { name: 'Right to left' }).click()
    await shows(ui.page, ['005.jpg', '004.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['003.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['002.jpg', '001.jpg'])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('vertical mode stacks every page and follows the scroll', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(`${app.url}/#/reader/${ids['Six Pages']}?page=1`)
    await shows(ui.page, ['001.jpg'])
    await ui.page.getByRole('button', { name: 'Vertical' }).click()
    await ui.page.getByRole('button', { name: 'Fit width' }).click()
    await ui.page.locator('.reader-vertical img[data-page="6"]').waitFor({ state: 'attached' })
    expect(await ui.page.locator('.reader-vertical img').count()).toBe(6)
    await ui.page.mouse.move(640, 500)
    await ui.page.keyboard.press('End')
    await ui.page.waitForFunction(() => location.hash.endsWith('page=6'))
    await ui.page.keyboard.press('Home')
    await ui.page.waitForFunction(() => location.hash.endsWith('page=1'))
    // A hand scroll past page 1 (1920 px tall at this width): the middle of the screen is on
    // page 2 whether or not page 2 has loaded yet (a 900 px placeholder until then).
    await ui.page.mouse.wheel(0, 2200)
    await ui.page.waitForFunction(() => location.hash.endsWith('page=2'))
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('sets a named bookmark', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    const id = ids['Six Pages']!
    await ui.page.goto(`${app.url}/#/reader/${id}?page=5`)
    await shows(ui.page, ['005.jpg'])
    await ui.page.getByRole('button', { name: /Bookmark page/ }).click()
    await ui.page.getByRole('button', { name: /Bookmarked/ }).waitFor()
    await ui.page.getByRole('button', { name: 'Bookmarks' }).click()
    await ui.page.getByLabel('Name of the bookmark on page 5').fill('The <b>twist</b>')
    await ui.page.getByRole('button', { name: 'Save name' }).click()
    const marks = await until(
      async () => ({ list: (await app.json(`/api/archives/${id}/bookmarks`, { cookie })).body }),
      (body) => body.list[0]?.name === 'The <b>twist</b>',
    )
    expect(marks.list).toHaveLength(1)
    expect(marks.list[0].page).toBe(5)
    // Shown as text, and it jumps there.
    await ui.page.keyboard.press('Home')
    await shows(ui.page, ['001.jpg'])
    await ui.page.getByRole('button', { name: /The <b>twist<\/b>/ }).click()
    await shows(ui.page, ['005.jpg'])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('reads a Tankoubon across its members and saves its progress', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(`${app.url}/#/reader/${tank}`)
    await shows(ui.page, ['001.jpg'])
    const member = (n: number) =>
      ui.page.locator(`.reader-paged img[src*="/api/archives/${ids[`Volume ${n}`]}/page"]`)
    await member(1).waitFor()
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['002.jpg'])
    await ui.page.keyboard.press('ArrowRight')
    await shows(ui.page, ['001.jpg'])
    await member(2).waitFor()
    await expect(ui.page.locator('.reader-position').textContent()).resolves.toBe('Page 3 / 4')
    await until(
      async () => (await app.json(`/api/tankoubons/${tank}`, { cookie })).body,
      (body) => body.progress === 3,
    )
    // One contents entry per member.
    await ui.page.getByRole('button', { name: 'Contents' }).click()
    await ui.page.getByRole('button', { name: /Volume 1/ }).click()
    await member(1).waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
