// The archive page in a real browser: tags edited through the chip editor (with a suggestion from
// the index) reach the server; a metadata plugin's proposal is applied only as ticked; the
// archive joins a category.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer, until } from './browser.ts'

const PARSED = '(C99) [Wave Circle (Kano Aki)] Morning Tide (Blue Sea) [English]'

describe('archive page', () => {
  let app: TestServer
  let cookie: string
  const ids: Record<string, string> = {}

  const metadata = async (id: string) =>
    (await app.json(`/api/archives/${id}/metadata`, { cookie })).body

  useUiServer(
    {
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'Plain Book.cbz'), { pages: 3 })
        await makeCbz(join(dir, 'Tagged Book.cbz'), { pages: 2 })
        await makeCbz(join(dir, `${PARSED}.cbz`), { pages: 2 })
      },
    },
    async (started) => {
      app = started
      await app.idle()
      cookie = await app.login()
      Object.assign(ids, await app.idsByTitle(cookie))
      // A tag the index knows, for the editor to suggest.
      await app.req(`/api/archives/${ids['Tagged Book']}/metadata`, {
        method: 'PUT',
        cookie,
        body: new URLSearchParams({ tags: 'artist:hokusai, series:great wave' }),
      })
    },
  )

  uiTest('adds a tag with the chip editor and its suggestion, and saves it', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    const id = ids['Plain Book']!
    await ui.page.goto(`${app.url}/#/archive/${id}`)
    await ui.page.getByRole('heading', { name: 'Plain Book' }).waitFor()
    await ui.page.getByRole('button', { name: 'Edit' }).click()
    const input = ui.page.getByLabel('Add a tag')
    await input.fill('hoku')
    await ui.page.getByRole('option', { name: 'artist:hokusai' }).click()
    await ui.page.getByRole('button', { name: 'Remove tag artist:hokusai' }).waitFor()
    // Typed and confirmed with Enter; markup stays text.
    await input.fill('<i>odd</i>')
    await input.press('Enter')
    await ui.page.getByRole('button', { name: 'Save metadata' }).click()
    await ui.page.getByRole('link', { name: /hokusai/ }).waitFor()
    const tags = (await metadata(id)).tags as string
    expect(tags).toContain('artist:hokusai')
    expect(tags).toContain('<i>odd</i>')
    expect(await ui.page.locator('i').count()).toBe(0)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('runs a metadata plugin and applies only the ticked results', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    const id = ids[PARSED]!
    await ui.page.goto(`${app.url}/#/archive/${id}`)
    await ui.page.getByLabel('Plugin to run').selectOption({ label: 'Filename Parsing' })
    await ui.page.getByRole('button', { name: 'Run plugin' }).click()
    await ui.page.getByRole('checkbox', { name: 'Add tag artist:Kano Aki' }).waitFor()
    await ui.page.getByRole('checkbox', { name: 'Add tag language:english' }).uncheck()
    await ui.page.getByRole('checkbox', { name: /Title/ }).uncheck()
    await ui.page.getByRole('button', { name: 'Apply selected' }).click()
    const meta = await until(
      () => metadata(id),
      (m) => String(m.tags).includes('artist:Kano Aki'),
    )
    expect(meta.tags).toContain('group:Wave Circle')
    expect(meta.tags.toLowerCase()).not.toContain('language:')
    expect(meta.title).toBe(PARSED)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('adds the archive to a category', async (shot) => {
    const created = await app.req('/api/categories', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'Favourites' }),
    })
    const category = ((await created.json()) as Wire).category_id as string
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    const id = ids['Plain Book']!
    await ui.page.goto(`${app.url}/#/archive/${id}`)
    const box = ui.page.getByRole('checkbox', { name: 'Favourites' })
    await box.check()
    await until(
      async () => (await app.json(`/api/categories/${category}`, { cookie })).body,
      (c) => c.archives?.includes(id),
    )
    await ui.page.reload()
    expect(await ui.page.getByRole('checkbox', { name: 'Favourites' }).isChecked()).toBe(true)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
