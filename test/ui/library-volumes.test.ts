// A grouped Tankoubon's volumes in the grid (issue 26 §6): the library shows a Tankoubon as one
// card; "Show volumes" lists its archives one by one instead (groupby_tanks=false), kept in the URL.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

describe('library volumes', () => {
  let app: TestServer
  useUiServer(
    {
      beforeStart: async (dir) => {
        for (const [i, title] of ['Saga 1', 'Saga 2', 'Loose'].entries())
          await makeCbz(join(dir, `${title}.cbz`), { pages: 1, seed: 70 + i })
      },
    },
    async (started) => {
      app = started
      await app.idle()
      const cookie = await app.login()
      const ids = await app.idsByTitle(cookie)
      const created = await app.req('/api/tankoubons', {
        method: 'PUT',
        cookie,
        body: new URLSearchParams({ name: 'The Saga' }),
      })
      const tank = ((await created.json()) as Wire).tankoubon_id as string
      for (const title of ['Saga 1', 'Saga 2']) {
        const res = await app.json(`/api/tankoubons/${tank}/${ids[title]}`, {
          method: 'PUT',
          cookie,
        })
        expect(res.status).toBe(200)
      }
    },
  )

  uiTest('shows a Tankoubon as one card, or its volumes one by one', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    const titles = () => ui.page.locator('.lib-card-title').allTextContents()
    await ui.page.locator('.lib-card-title').getByText('The Saga').waitFor()
    expect((await titles()).sort()).toEqual(['Loose', 'The Saga'])
    await ui.page.getByLabel('Show volumes').check()
    await ui.page.locator('.lib-card-title').getByText('Saga 2').waitFor()
    expect((await titles()).sort()).toEqual(['Loose', 'Saga 1', 'Saga 2'])
    expect(ui.page.url()).toContain('volumes=1')
    await ui.page.reload()
    await ui.page.locator('.lib-card-title').getByText('Saga 2').waitFor()
    expect(await ui.page.getByLabel('Show volumes').isChecked()).toBe(true)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
