// Maintenance page: a backup runs to the end and offers its document for download; a duplicate
// scan over a library holding a re-encoded copy of a book shows the two side by side.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { smallerJpeg, writeBook } from '../duplicates/books.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

const BOOK = [11, 12, 13, 14, 15, 16]

describe('maintenance page', () => {
  let app: TestServer
  let cookie: string
  useUiServer(
    {
      async beforeStart(content) {
        await writeBook(join(content, 'original.cbz'), BOOK)
        await writeBook(join(content, 'copy-small.cbz'), BOOK, smallerJpeg)
        await writeBook(join(content, 'unrelated.cbz'), [71, 72, 73, 74, 75])
      },
    },
    async (started) => {
      app = started
      cookie = await app.login()
      await app.idle()
      await app.jobsDone()
    },
  )

  uiTest('runs a backup and links its document', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/maintenance')
    await ui.page.getByRole('button', { name: 'Start backup' }).click()
    const backup = ui.page.locator('.job-progress', { hasText: 'Backup' })
    await backup.and(ui.page.locator('[data-state="finished"]')).waitFor()
    const link = ui.page.getByRole('link', { name: /^Download backup #\d+$/ })
    await link.waitFor()
    const href = await link.getAttribute('href')
    expect(href).toMatch(/^\/api\/database\/backup\/\d+\?format=file$/)
    const doc = await app.json<Wire>(href!.replace('format=file', 'format=json'), { cookie })
    expect(doc.status).toBe(200)
    expect((doc.body.archives as Wire[]).map((a) => a.filename).sort()).toEqual([
      'copy-small',
      'original',
      'unrelated',
    ])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('scans for duplicates and shows the group side by side', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/maintenance')
    await ui.page.getByText('No duplicate groups.').waitFor()
    await ui.page.getByRole('button', { name: 'Scan for duplicates' }).click()
    const group = ui.page.getByRole('listitem', { name: 'Duplicate group 1' })
    await group.waitFor({ timeout: 20_000 })
    await ui.page.getByText('1 duplicate group', { exact: true }).waitFor()
    expect(await group.getByRole('link').allTextContents()).toEqual(['original', 'copy-small'])
    await group.getByRole('img', { name: 'copy-small' }).waitFor()
    expect(await ui.page.getByRole('listitem', { name: 'Duplicate group 2' }).count()).toBe(0)

    // Deleting the copy asks first, then the group is gone (one member left).
    await group.getByLabel('Delete copy-small').check()
    await group.getByRole('button', { name: 'Delete ticked' }).click()
    await group.getByRole('button', { name: 'Confirm' }).click()
    await ui.page.getByText('No duplicate groups.').waitFor()
    const { body } = await app.json<Wire[]>('/api/archives', { cookie })
    expect(body.map((a) => a.filename).sort()).toEqual(['original', 'unrelated'])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
  uiTest('restores a backup and imports one, leaving a snapshot', async (shot) => {
    const { body: doc } = await app.json<Wire>('/api/database/backup', { cookie })
    doc.archives[0].summary = 'restored from the UI'
    const file = {
      name: 'backup.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(doc)),
    }
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/maintenance')

    await ui.page.getByLabel('Backup file to restore').setInputFiles(file)
    await ui.page.getByRole('button', { name: 'Restore', exact: true }).click()
    await ui.page
      .getByRole('group', { name: 'Overwrite metadata from this backup?' })
      .getByRole('button', { name: 'Confirm' })
      .click()
    await ui.page.locator('.job-progress[data-state="finished"]', { hasText: 'Restore' }).waitFor()
    const archive = await app.json<Wire>(`/api/archives/${doc.archives[0].arcid}/metadata`, {
      cookie,
    })
    expect(archive.body.summary).toBe('restored from the UI')

    await ui.page.getByLabel('LANraragi backup file').setInputFiles(file)
    await ui.page.getByRole('button', { name: 'Import', exact: true }).click()
    await ui.page.getByRole('button', { name: 'Confirm' }).click()
    await ui.page.locator('.job-progress[data-state="finished"]', { hasText: 'Import' }).waitFor()
    const snapshots = ui.page.getByRole('list', { name: 'Snapshots' })
    await snapshots.getByText('import_legacy').waitFor()
    await snapshots.getByRole('button', { name: /^Delete snapshot \d+$/ }).click()
    await snapshots.getByRole('button', { name: 'Confirm' }).click()
    await ui.page.getByText('No snapshots.').waitFor()
    const left = await app.json<Wire>('/api/database/import-snapshots', { cookie })
    expect(left.body.snapshots).toEqual([])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
