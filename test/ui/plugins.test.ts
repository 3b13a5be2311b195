// Plugins page: the built-in plugins listed by type with their names; a setting changed through
// the form is what the API answers; the priority order moves; a valid .ts plugin uploads and is
// listed, replaced by a second upload and deleted, an invalid one shows the server's error; a
// script plugin runs and its answer and run log show.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, type UiPage, useUiServer } from './browser.ts'

const HELLO = `export function pluginInfo() { return ${JSON.stringify({
  name: 'Hello Upload',
  author: 'test',
  description: 'an uploaded <b>plugin</b>',
  version: '1.0',
  type: 'script',
  oneshot_arg: 'Who to greet',
})} }
export function runScript(ctx) {
  console.log('greeting ' + (ctx.oneshot ?? 'world'))
  if (ctx.oneshot === 'nobody') throw new Error('nobody to greet')
  return { data: 'hello ' + (ctx.oneshot ?? 'world') }
}
`

describe('plugins page', () => {
  let app: TestServer
  let cookie: string
  useUiServer(
    {
      beforeStart: async (content) => {
        await makeCbz(join(content, '[Tester] Moonlight Story.cbz'))
      },
    },
    async (started) => {
      app = started
      cookie = await app.login()
      await app.idle()
    },
  )

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

    // Dragging the third plugin's handle onto the first card puts it first.
    const third = after[2]!.name as string
    const handle = metadata.getByRole('button', { name: `Drag ${third} to reorder` })
    const target = (await metadata.locator('li.plugin').first().boundingBox())!
    const from = (await handle.boundingBox())!
    await ui.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
    await ui.page.mouse.down()
    await ui.page.mouse.move(target.x + 40, target.y + 10, { steps: 5 })
    await ui.page.mouse.up()
    await metadata
      .locator('li.plugin')
      .first()
      .and(metadata.getByRole('listitem', { name: third }))
      .waitFor()
    for (let i = 0; i < 50 && after[0]?.name !== third; i++) {
      after = (await app.json<Wire[]>('/api/plugins/metadata', { cookie })).body
      if (after[0]?.name !== third) await Bun.sleep(50)
    }
    expect(after.slice(0, 3).map((p) => p.name)).toEqual([third, before[1]!.name, first])
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
    await expect(card.getByLabel('Run log').textContent()).resolves.toBe('greeting you')
    // A failed run shows its error and its log.
    await card.getByLabel('Who to greet').fill('nobody')
    await card.getByRole('button', { name: 'Run now' }).click()
    await card.getByText('nobody to greet').waitFor()
    await card.getByLabel('Run log').getByText('greeting nobody').waitFor()
    // Queued, the failed job's log shows under it, and in the jobs console's details.
    await card.getByRole('button', { name: 'Queue as job' }).click()
    await card.locator('.job-progress[data-state="failed"]').waitFor()
    await expect(card.getByLabel('Run log').textContent()).resolves.toBe('greeting nobody')
    await ui.page.getByRole('link', { name: 'Jobs', exact: true }).click()
    const job = ui.page.locator('li.job[data-state="failed"]').filter({ hasText: 'plugin_exec' })
    await job.first().getByRole('button', { name: 'Details' }).click()
    await job.first().getByLabel('Run log').getByText('greeting nobody').waitFor()
    await ui.page.goto(app.url + '/#/plugins')
    await card.getByRole('button', { name: 'Configure Hello Upload' }).click()

    // The same file name again replaces it, the toast naming both versions.
    await input.setInputFiles({
      name: 'hello.ts',
      mimeType: 'text/plain',
      buffer: Buffer.from(HELLO.replace('"1.0"', '"2.0"')),
    })
    await ui.page.getByRole('button', { name: 'Upload plugin' }).click()
    await ui.page.getByText('Replaced custom/script/hello v1.0 with v2.0.').waitFor()
    await card.getByText('v2.0').waitFor()

    // Deleting asks first; a built-in has no delete button.
    await card.getByRole('button', { name: 'Delete Hello Upload' }).click()
    await card.getByRole('button', { name: 'Confirm' }).click()
    await card.waitFor({ state: 'detached' })
    const { body } = await app.json<Wire[]>('/api/plugins/script', { cookie })
    expect(body.map((p) => p.namespace)).not.toContain('custom/script/hello')
    const builtin = ui.page
      .getByRole('list', { name: 'Metadata plugins' })
      .getByRole('listitem', { name: 'ComicInfo' })
    await builtin.waitFor()
    expect(await builtin.getByRole('button', { name: /^Delete/ }).count()).toBe(0)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
  uiTest(
    "shows a login plugin's reach, sets and replaces a secret argument (set / not set)",
    async (shot) => {
      const ui = await open(shot)
      const card = ui.page
        .getByRole('list', { name: 'Login plugins' })
        .getByRole('listitem', { name: 'E-Hentai' })
      // Its card shows where its session goes and which plugins ride it.
      const reach = card.getByRole('definition')
      await reach.getByText('e-hentai.org, *.e-hentai.org, exhentai.org, *.exhentai.org').waitFor()
      await reach.getByText('download/ehentai, metadata/ehentai').waitFor()
      await card.getByRole('button', { name: 'Configure E-Hentai' }).click()
      const hash = card.getByLabel('ipb_pass_hash cookie')
      expect(await hash.getAttribute('type')).toBe('password')
      await card.getByText('(not set)').first().waitFor()
      await hash.fill('pass-hash-1')
      await card.getByRole('button', { name: 'Save settings' }).click()
      await ui.page.getByText('Saved the settings of E-Hentai.').waitFor()
      const path = '/api/plugins/settings?namespace=login/ehentai'
      expect((await app.json<Wire>(path, { cookie })).body).toMatchObject({
        customargs: [null, null, null],
        secret_set: [false, true, false],
      })
      // Saved, the field is empty again and says set; saving untouched keeps the secret.
      await card.getByText('(set)').waitFor()
      expect(await hash.inputValue()).toBe('')
      // Another change saved with the secret untouched keeps it. (The first toast fades first,
      // so the one awaited is this save's, shown once the form has its answer.)
      const toast = ui.page.getByText('Saved the settings of E-Hentai.')
      await toast.waitFor({ state: 'detached' })
      await card.getByLabel('Enabled').check()
      await card.getByRole('button', { name: 'Save settings' }).click()
      await toast.waitFor()
      expect((await app.json<Wire>(path, { cookie })).body).toMatchObject({
        enabled: true,
        secret_set: [false, true, false],
      })
      await card.getByRole('button', { name: 'Clear' }).click()
      await card.getByRole('button', { name: 'Save settings' }).click()
      // Cleared says so at once; the save's answer then says not set.
      await card.getByText('(cleared on save)').waitFor({ state: 'detached' })
      await card
        .locator('label', { hasText: 'ipb_pass_hash cookie' })
        .getByText('(not set)')
        .waitFor()
      expect((await app.json<Wire>(path, { cookie })).body.secret_set).toEqual([
        false,
        false,
        false,
      ])
      expect(ui.errors).toEqual([])
      await ui.context.close()
    },
  )
  uiTest('runs a metadata plugin on a searched archive, then queues it to apply', async (shot) => {
    const ui = await open(shot)
    const card = ui.page
      .getByRole('list', { name: 'Metadata plugins' })
      .getByRole('listitem', { name: 'Filename Parsing' })
    await card.getByRole('button', { name: 'Configure Filename Parsing' }).click()
    await card.getByLabel('Search an archive to run on').fill('Moonlight')
    await card.getByRole('button', { name: '[Tester] Moonlight Story' }).click()
    await card.getByText('Archive: [Tester] Moonlight Story').waitFor()
    await card.getByRole('button', { name: 'Run now' }).click()
    await card.locator('dl.plugin-answer').getByText('artist:Tester').waitFor()

    await card.getByRole('button', { name: 'Queue and apply' }).click()
    await card.locator('.job-progress[data-state="finished"]').waitFor()
    const { body } = await app.json<Wire[]>('/api/archives', { cookie })
    expect(body[0]!.tags).toContain('artist:Tester')
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
