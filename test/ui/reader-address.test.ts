// The reader and the address bar, and the mouse wheel over its bars (issue 26 §6): `?page=` edited
// while the book is open goes to that page; in vertical mode the wheel over the toolbar scrolls the
// pages as it does over them.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

describe('reader address and wheel', () => {
  let app: TestServer
  let id = ''
  let ids: Record<string, string> = {}
  useUiServer(
    {
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'Eight Pages.cbz'), { pages: 8, width: 200, height: 300 })
        await makeCbz(join(dir, 'Webtoon.cbz'), { pages: 3, width: 200, height: 300 })
        await makeCbz(join(dir, 'Manga.cbz'), { pages: 3, width: 200, height: 300 })
      },
    },
    async (started) => {
      app = started
      await app.idle()
      const cookie = await app.login()
      ids = await app.idsByTitle(cookie)
      id = ids['Eight Pages']!
    },
  )

  uiTest('goes to the page typed into the address', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(`${app.url}/#/reader/${id}?page=1`)
    const position = ui.page.locator('.reader-position')
    await position.getByText('Page 1 / 8').waitFor()
    // Turn a page first: the address the reader wrote (page=2) is not the one it opened with.
    await ui.page.keyboard.press('ArrowRight')
    await position.getByText('Page 2 / 8').waitFor()
    await ui.page.goto(`${app.url}/#/reader/${id}?page=6`)
    await position.getByText('Page 6 / 8').waitFor()
    // Back to the page it was opened at: the same address as the first route, still followed.
    await ui.page.goto(`${app.url}/#/reader/${id}?page=1`)
    await position.getByText('Page 1 / 8').waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('in vertical mode the wheel over the toolbar scrolls the pages', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(`${app.url}/#/reader/${id}?page=1`)
    await ui.page.getByRole('button', { name: 'Vertical' }).click()
    await ui.page.getByRole('button', { name: 'Fit width' }).click()
    const stage = ui.page.locator('.reader-vertical')
    await stage.waitFor()
    await ui.page.waitForFunction(() => {
      const el = document.querySelector('.reader-vertical')!
      return el.scrollHeight > el.clientHeight * 2
    })
    const before = await stage.evaluate((el) => el.scrollTop)
    const bar = (await ui.page.locator('.reader-bar-top').boundingBox())!
    await ui.page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 2)
    await ui.page.mouse.wheel(0, 600)
    await ui.page.waitForFunction((from) => {
      return document.querySelector('.reader-vertical')!.scrollTop > from + 300
    }, before)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('each book keeps its own reading mode and direction', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    const open = async (title: string) => {
      await ui.page.goto(`${app.url}/#/reader/${ids[title]}?page=1`)
      await ui.page.locator('.reader-title').getByText(title).waitFor()
    }
    const pressed = async (name: string) =>
      ui.page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')
    await open('Webtoon')
    await ui.page.getByRole('button', { name: 'Vertical' }).click()
    await ui.page.locator('.reader-vertical').waitFor()
    await open('Manga')
    // A book never read here opens with the last choice; then gets its own.
    expect(await pressed('Vertical')).toBe('true')
    await ui.page.getByRole('button', { name: 'Single' }).click()
    await ui.page.getByRole('button', { name: 'Right to left' }).click()
    await open('Webtoon')
    expect(await pressed('Vertical')).toBe('true')
    await open('Manga')
    expect(await pressed('Single')).toBe('true')
    expect(await pressed('Right to left')).toBe('true')
    // Kept across a reload (localStorage).
    await ui.page.reload()
    await ui.page.locator('.reader-title').getByText('Manga').waitFor()
    expect(await pressed('Right to left')).toBe('true')
    await open('Webtoon')
    expect(await pressed('Vertical')).toBe('true')
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
