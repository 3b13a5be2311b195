// Moving between views (issue 27): a malformed address shows the app's Not found page rather than
// a blank one; each view names the tab (`Library · <server name>`, the book's title in the
// reader); and after a navigation focus is on the new view (its heading, or its main region),
// with the reader's keys still turning pages.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

/** The focused element: where it sits and what it says. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement
    return {
      tag: el?.tagName.toLowerCase() ?? null,
      inMain: Boolean(el?.closest('main')),
      text: el?.tagName === 'H1' ? el.textContent : null,
    }
  })
}

describe('navigation', () => {
  let app: TestServer
  let id = ''
  let server = ''
  useUiServer(
    {
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'Eight Pages.cbz'), { pages: 8 })
      },
    },
    async (started) => {
      app = started
      await app.idle()
      id = (await app.idsByTitle(await app.login()))['Eight Pages']!
      server = (await app.json('/api/info')).body.name
    },
  )

  const titled = (page: Page, title: string) =>
    page.waitForFunction((want) => document.title === want, `${title} · ${server}`)

  uiTest('a malformed address shows the Not found page', async (shot) => {
    const ui = await openUi(app, '#/archive/%E0%A4%A')
    shot.page = ui.page
    await ui.page.getByRole('heading', { name: 'Not found' }).waitFor()
    await ui.page.getByRole('navigation', { name: 'Main' }).waitFor()
    await titled(ui.page, 'Not found')
    // Reached from a working page too (a hashchange), and the app still runs afterwards.
    await ui.page.goto(`${app.url}/#/tags`)
    await titled(ui.page, 'Tags')
    await ui.page.goto(`${app.url}/#/reader/%E0`)
    await ui.page.getByRole('heading', { name: 'Not found' }).waitFor()
    await ui.page.getByRole('link', { name: 'Back to the library' }).click()
    await titled(ui.page, 'Library')
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('each view titles the tab and takes the focus', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    const { page } = ui
    await logInThroughUi(app, ui)
    await titled(page, 'Library')

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click()
    await titled(page, 'Tags')
    expect(await focused(page)).toEqual({ tag: 'h1', inMain: true, text: 'Tags' })

    // The archive's own title, once it has loaded.
    await page.goto(`${app.url}/#/archive/${id}`)
    await titled(page, 'Eight Pages')
    expect((await focused(page)).inMain).toBe(true)

    // The reader has no heading: its main region has the focus, and the keys still turn pages.
    await page.getByRole('link', { name: 'Read', exact: true }).click()
    const position = page.locator('.reader-position')
    await position.getByText('Page 1 / 8').waitFor()
    await titled(page, 'Eight Pages')
    expect(await focused(page)).toEqual({ tag: 'main', inMain: true, text: null })
    await page.keyboard.press('ArrowRight')
    await position.getByText('Page 2 / 8').waitFor()

    // Escape closes the book: back to the library, focus on its heading.
    await page.keyboard.press('Escape')
    await titled(page, 'Library')
    expect(await focused(page)).toEqual({ tag: 'h1', inMain: true, text: 'Library' })
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
