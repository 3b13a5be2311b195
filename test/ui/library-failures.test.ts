// The library when its search fails (issue 26 §6): a refused search is shown once with the
// server's message and asked again only by the user; a logged-out visitor on a server that wants a
// login is sent to the login page and back to the library afterwards. Counts the browser's requests
// rather than timing anything: after the page has settled, the number of searches stays the same
// across a pause.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makeCbz } from '../helpers/fixtures.ts'
import { TEST_PASSWORD, type TestServer } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

/** A pause long enough for a retry loop to show itself (the old code asked ~24 times a second). */
const PAUSE_MS = 1500

/** Counts the page's requests to each API path from now on. */
function countRequests(page: Page) {
  const counts = new Map<string, number>()
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    counts.set(path, (counts.get(path) ?? 0) + 1)
  })
  return (path: string) => counts.get(path) ?? 0
}

describe('library failures', () => {
  let app: TestServer
  useUiServer(
    {
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'Only Book.cbz'), { pages: 2 })
      },
    },
    async (started) => {
      app = started
      await app.idle()
    },
  )

  uiTest('a refused search is shown once, and asked again only by Retry', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.locator('.lib-card-title').getByText('Only Book').waitFor()
    const count = countRequests(ui.page)
    // No such category: the server answers 400.
    await ui.page.goto(app.url + '/#/?category=bogus')
    const alert = ui.page.locator('.lib-results').getByRole('alert')
    await alert.getByText('Invalid category ID').waitFor()
    const settled = count('/api/search')
    await ui.page.waitForTimeout(PAUSE_MS)
    expect(count('/api/search')).toBe(settled)
    expect(settled).toBe(1)
    // No skeletons stand in for results that are not coming.
    expect(await ui.page.locator('.lib-card-skeleton').count()).toBe(0)
    // Retry asks once more, and fails once more.
    await ui.page.getByRole('button', { name: 'Retry' }).click()
    await ui.page.waitForTimeout(PAUSE_MS)
    expect(count('/api/search')).toBe(2)
    await alert.getByText('Invalid category ID').waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('a logged-out visitor gets the login page, then the library', async (shot) => {
    const ui = await openUi(app, '#/about-to-change')
    shot.page = ui.page
    const count = countRequests(ui.page)
    await ui.page.goto(app.url + '/#/?q=only')
    await ui.page.getByLabel('Password').waitFor()
    expect(ui.page.url()).toContain('#/login')
    const searches = count('/api/search')
    const refreshes = count('/api/token/refresh')
    await ui.page.waitForTimeout(PAUSE_MS)
    expect(count('/api/search')).toBe(searches)
    expect(count('/api/token/refresh')).toBe(refreshes)
    expect(searches).toBe(1)
    expect(refreshes).toBeLessThanOrEqual(1)
    // Logging in comes back to the search the visitor asked for.
    await ui.page.getByLabel('Password').fill(TEST_PASSWORD)
    await ui.page.getByRole('button', { name: 'Log in' }).click()
    await ui.page.locator('.lib-card-title').getByText('Only Book').waitFor()
    expect(decodeURIComponent(ui.page.url())).toContain('q=only')
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
