// Categories and Tankoubons through the UI: a dynamic category made in the form is what the API
// then answers; a Tankoubon made, given two archives found by search, reordered (by drag, then by
// button) and saved has that order in the API.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

describe('collections views', () => {
  let app: TestServer
  let cookie: string
  let ids: Record<string, string>
  useUiServer(
    {
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Alpha Volume.cbz'), { pages: 2, seed: 1 })
        await makeCbz(join(content, 'Beta Volume.cbz'), { pages: 2, seed: 2 })
      },
    },
    async (started) => {
      app = started
      await app.idle()
      cookie = await app.login()
      ids = await app.idsByTitle(cookie)
    },
  )

  uiTest('creates, edits and deletes a dynamic category', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/categories')
    await ui.page.getByRole('button', { name: 'New category' }).click()
    await ui.page.getByLabel('Name').fill('Volumes')
    await ui.page.getByLabel(/^Search/).fill('volume')
    await ui.page.getByLabel('Pinned').check()
    await ui.page.getByRole('button', { name: 'Create category' }).click()
    const row = ui.page.getByRole('listitem', { name: 'Volumes' })
    await row.getByText('Dynamic:').waitFor()

    const { body: list } = await app.json<Wire[]>('/api/categories', { cookie })
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ name: 'Volumes', search: 'volume', pinned: '1' })
    expect(await row.getByRole('link', { name: 'Show in library' }).getAttribute('href')).toBe(
      `#/?category=${list[0]!.id}`,
    )

    await row.getByRole('button', { name: 'Edit' }).click()
    await row.getByLabel('Name').fill('Static shelf')
    await row.getByLabel(/^Search/).fill('')
    await row.getByRole('button', { name: 'Save' }).click()
    const renamed = ui.page.getByRole('listitem', { name: 'Static shelf' })
    await renamed.getByText('Static: 0 archives').waitFor()
    const { body: edited } = await app.json(`/api/categories/${list[0]!.id}`, { cookie })
    expect(edited).toMatchObject({ name: 'Static shelf', search: '' })

    await renamed.getByRole('button', { name: 'Delete' }).click()
    await renamed.getByRole('button', { name: 'Yes, delete' }).click()
    await ui.page.getByText('No categories yet.').waitFor()
    expect((await app.json<Wire[]>('/api/categories', { cookie })).body).toEqual([])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('builds a Tankoubon of two archives and saves their new order', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/tankoubons')
    await ui.page.getByLabel('New Tankoubon name').fill('The Series')
    await ui.page.getByRole('button', { name: 'Create Tankoubon' }).click()
    await ui.page.getByRole('heading', { name: 'The Series' }).waitFor()
    const tankId = decodeURIComponent(new URL(ui.page.url()).hash.split('/')[2]!)
    expect(tankId).toMatch(/^TANK_\d{10}$/)

    await ui.page.getByLabel('Search archives to add').fill('volume')
    await ui.page.getByRole('button', { name: 'Search' }).click()
    await ui.page.getByRole('button', { name: 'Add Alpha Volume' }).click()
    await ui.page.getByRole('button', { name: 'Add Beta Volume' }).click()
    const members = ui.page.getByRole('list', { name: 'Members' }).getByRole('listitem')
    await members.nth(1).getByText('Beta Volume').waitFor()
    expect(await members.count()).toBe(2)
    await ui.page.getByRole('button', { name: 'Save changes' }).click()
    await ui.page.getByText('Unsaved changes').waitFor({ state: 'detached' })
    const order = async () =>
      (await app.json(`/api/tankoubons/${tankId}`, { cookie })).body.archives as string[]
    expect(await order()).toEqual([ids['Alpha Volume']!, ids['Beta Volume']!])

    // Drag the first row's handle below the second.
    const handle = members.first().locator('.tank-handle')
    const target = await members.nth(1).boundingBox()
    const from = await handle.boundingBox()
    await ui.page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2)
    await ui.page.mouse.down()
    await ui.page.mouse.move(from!.x + 5, target!.y + target!.height - 2, { steps: 5 })
    await ui.page.mouse.up()
    await members.first().getByText('Beta Volume').waitFor()
    await ui.page.getByRole('button', { name: 'Save changes' }).click()
    await ui.page.getByText('Unsaved changes').waitFor({ state: 'detached' })
    expect(await order()).toEqual([ids['Beta Volume']!, ids['Alpha Volume']!])

    // And back with the keyboard-friendly button.
    await ui.page.getByRole('button', { name: 'Move Alpha Volume up' }).click()
    await ui.page.getByRole('button', { name: 'Save changes' }).click()
    await ui.page.getByText('Unsaved changes').waitFor({ state: 'detached' })
    expect(await order()).toEqual([ids['Alpha Volume']!, ids['Beta Volume']!])
    expect(await ui.page.getByRole('link', { name: 'Read' }).getAttribute('href')).toBe(
      `#/reader/${tankId}`,
    )
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
