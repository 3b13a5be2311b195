// The download queue through the UI: a slow download added in the form shows its bytes moving
// over the event stream and ends done without a reload; a filename conflict asks its question, and
// the compare view picks the download's extra page into a patch of the library copy.
import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import type { TestServer } from '../helpers/server.ts'
import {
  PLUGIN,
  addItem,
  getItem,
  inState,
  useDownloadTestWorld,
  waitForItem,
  type FakeSite,
} from '../downloads/fake-site.ts'
import { closeBrowser, logInThroughUi, openUi, uiTest } from './browser.ts'

const world = useDownloadTestWorld()
let app: TestServer
let cookie: string
let site: FakeSite
const scratch = mkdtempSync(join(tmpdir(), 'tankobun-ui-dl-'))
beforeAll(async () => {
  ;({ app, cookie, site } = world)
  await app.idle()
})
afterAll(async () => {
  await closeBrowser()
  rmSync(scratch, { recursive: true, force: true })
})

/** Downloads /files/<key> under `name` through the API; answers the settled item. */
async function download(key: string, name: string) {
  const item = await addItem(
    app,
    cookie,
    `${site.base}/files/${key}?name=${encodeURIComponent(name)}`,
  )
  await world.post(`/api/download_queue/${item.id}/start`)
  return waitForItem(app, cookie, item.id, inState('done', 'error', 'waiting'))
}

describe('download queue view', () => {
  uiTest('shows a slow download progress live until it is done', async (shot) => {
    // ~200 KiB of incompressible padding at 4 KiB per 40 ms: about two seconds of transfer.
    const path = await makeCbz(join(scratch, 'slow-book.cbz'), {
      pages: 2,
      compression: 'store',
      entries: [{ name: 'padding.bin', data: randomBytes(200 * 1024) }],
    })
    site.files.set('slow-book.cbz', new Uint8Array(await readFile(path)))
    site.slowChunkMs = 40
    const url = `${site.base}/slow/slow-book.cbz`

    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/downloads')
    let loads = 0
    ui.page.on('load', () => loads++)
    await ui.page.getByLabel('URLs (one per line)').fill(url)
    await ui.page.getByRole('button', { name: 'Add to queue' }).click()
    const row = ui.page
      .getByRole('list', { name: 'Download queue' })
      .getByRole('listitem', { name: url })
    await row.getByText('Queued').waitFor()
    const { body } = await app.json('/api/download_queue', { cookie })
    // The plugin was picked automatically by its url_regex.
    expect(body.items).toMatchObject([{ url, plugin_namespace: PLUGIN, state: 'queued' }])

    await row.getByRole('button', { name: 'Start' }).click()
    const partial = row.getByText(/ of .*\((?:[1-9]|[1-9]\d)%\)/)
    await partial.waitFor()
    const firstSeen = await partial.textContent()
    const bar = row.getByRole('progressbar', { name: 'Download progress' })
    const value = Number(await bar.getAttribute('value'))
    expect(value).toBeGreaterThan(0)
    expect(value).toBeLessThan(Number(await bar.getAttribute('max')))
    // The figure moves on while the page stays as it is.
    await ui.page.waitForFunction((seen) => {
      const text = document.querySelector('.dl-bytes')?.textContent
      return !text || text !== seen
    }, firstSeen)
    await row.getByText('Done').waitFor({ timeout: 20_000 })
    await row.getByRole('link', { name: 'Open archive' }).waitFor()
    expect(loads).toBe(0)
    const item = (await app.json('/api/download_queue', { cookie })).body.items[0]
    expect(item.state).toBe('done')
    expect(await row.getByRole('link', { name: 'Open archive' }).getAttribute('href')).toBe(
      `#/archive/${item.archive_ids[0]}`,
    )
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest(
    'asks about a filename conflict and keeps the library copy with a picked page',
    async (shot) => {
      await world.serveCbz('clash-1.cbz', 3, 5)
      await world.serveCbz('clash-2.cbz', 4, 5)
      const existing = await download('clash-1.cbz', 'Clash.cbz')
      expect(existing.state).toBe('done')
      const waiting = await download('clash-2.cbz', 'Clash.cbz')
      expect(waiting.state).toBe('waiting')

      const ui = await openUi(app)
      shot.page = ui.page
      await logInThroughUi(app, ui)
      await ui.page.goto(app.url + '/#/downloads')
      const question = ui.page
        .getByRole('listitem', { name: waiting.url })
        .getByRole('group', { name: 'Filename conflict' })
      await question.getByText('Clash.cbz').waitFor()
      await question.getByRole('button', { name: 'Replace with download' }).waitFor()
      await question.getByRole('button', { name: 'Keep library copy' }).waitFor()
      await question.getByLabel('New file name').waitFor()

      await question.getByRole('link', { name: 'Compare pages' }).click()
      await ui.page.getByText('Recommendation:').waitFor({ timeout: 20_000 })
      const pairs = ui.page.getByRole('list', { name: 'Matching pages' }).getByRole('listitem')
      expect(await pairs.count()).toBe(3)
      await pairs
        .first()
        .getByText(/Sharpness \d/)
        .first()
        .waitFor()
      const extra = ui.page.getByRole('list', { name: 'Only in the download' })
      await extra.getByRole('checkbox').first().check()
      await ui.page.getByRole('button', { name: 'Keep library copy, adding 1 picked page' }).click()
      await ui.page.waitForURL(`**/#/archive/${existing.archive_ids[0]}`)

      expect(await getItem(app, cookie, waiting.id)).toBeUndefined()
      const { body: archive } = await app.json(`/api/archives/${existing.archive_ids[0]}`, {
        cookie,
      })
      expect(archive.pagecount).toBe(4)
      expect(ui.errors).toEqual([])
      await ui.context.close()
    },
  )
})
