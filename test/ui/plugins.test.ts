// Plugins page: the built-in plugins listed by type with their names; a setting changed through
// the form is what the API answers; the priority order moves; a valid .ts plugin uploads and is
// listed, an invalid one shows the server's error; a script plugin runs and its answer shows.
import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { closeBrowser, logInThroughUi, openUi, uiTest, type UiPage } from './browser.ts'

const HELLO = `export function pluginInfo() { return ${JSON.stringify({
  name: 'Hello Upload',
  author: 'test',
  description: 'an uploaded <b>plugin</b>',
  version: '1.0',
  type: 'script',
  oneshot_arg: 'Who to greet',
})} }
export function runScript(ctx) { return { data: 'hello ' + (ctx.oneshot ?? 'world') } }
`

describe('plugins page', () => {
  let app: TestServer
  let cookie: string
  beforeAll(async () => {
    app = await startTestServer()
    cookie = await app.login()
  })
  afterAll(async () => {
    await closeBrowser()
    await app[Symbol.asyncDispose]()
  })

  async function open(shot: { page?: UiPage['page'] }) {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/plugins')
    return ui
  }

  uiTest('lists built-in plugins and saves a setting and the order', async (shot) => {
    const ui = await open(shot)
    const metadata = ui.page.getByRole('list', { name: 'Metadata plugins' })
    await metadata.getByRole('listitem', { name: 'Filename Parsing' }).waitFor()
    for (const name of ['ComicInfo', 'nHentai', 'Chaika.moe'])
      await metadata.getByRole('listitem', { name }).waitFor()
    await ui.page
      .getByRole('list', { name: 'Script plugins' })
      .getByText('script/folder-to-category')
      .waitFor()

    const card = metadata.getByRole('listitem', { name: 'Filename Parsing' })
    await card.getByRole('button', { name: 'Configure Filename Parsing' }).click()
    const saveTitle = card.getByLabel('Save the parsed title')
    expect(await saveTitle.isChecked()).toBe(true)
    await saveTitle.uncheck()
    await card.getByLabel('Run automatically on new archives').check()
    await card.getByRole('button', { name: 'Save settings' }).click()
    await ui.page.getByText('Saved the settings of Filename Parsing.').waitFor()
    const settings = await app.json<Wire>('/api/plugins/settings?namespace=metadata/filename', {
      cookie,
    })
    expect(settings.body).toMatchObject({ customargs: [false], enabled: true })

    // Moving the first metadata plugin down swaps the first two in the server's order.
    const before = (await app.json<Wire[]>('/api/plugins/metadata', { cookie })).body
    const first = before[0]!.name as string
    await metadata.getByRole('button', { name: `Move ${first} down` }).click()
    await metadata
      .locator('li.plugin')
      .nth(1)
      .and(metadata.getByRole('listitem', { name: first }))
      .waitFor()
    let after: Wire[] = []
    for (let i = 0; i < 50 && after[1]?.name !== first; i++) {
      after = (await app.json<Wire[]>('/api/plugins/metadata', { cookie })).body
      if (after[1]?.name !== first) await Bun.sleep(50)
    }
    expect(after.slice(0, 2).map((p) => p.name)).toEqual([before[1]!.name, first])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('uploads a plugin, runs it, and shows the error of an invalid one', async (shot) => {
    const ui = await open(shot)
    await ui.page.getByRole('list', { name: 'Script plugins' }).waitFor()
    const input = ui.page.getByLabel('Plugin file')

    await input.setInputFiles({
      name: 'broken.ts',
      mimeType: 'text/plain',
      buffer: Buffer.from('export const x = 1\n'),
    })
    await ui.page.getByRole('button', { name: 'Upload plugin' }).click()
    await expect(ui.page.getByRole('alert').textContent()).resolves.toMatch(/not a valid plugin/i)

    await input.setInputFiles({
      name: 'hello.ts',
      mimeType: 'text/plain',
      buffer: Buffer.from(HELLO),
    })
    await ui.page.getByRole('button', { name: 'Upload plugin' }).click()
    const card = ui.page
      .getByRole('list', { name: 'Script plugins' })
      .getByRole('listitem', { name: 'Hello Upload' })
    await card.waitFor()
    // Plugin strings are text: the description's markup is shown, not rendered.
    await card.getByText('an uploaded <b>plugin</b>').waitFor()
    await card.getByText('custom/script/hello').waitFor()
    expect(await ui.page.getByRole('alert').count()).toBe(0)

    await card.getByRole('button', { name: 'Configure Hello Upload' }).click()
    await card.getByLabel('Who to greet').fill('you')
    await card.getByRole('button', { name: 'Run now' }).click()
    await card.locator('pre.plugin-answer').getByText('"hello you"').waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
