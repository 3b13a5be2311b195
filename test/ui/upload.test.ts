// Upload through the UI: two real CBZ files picked at once reach "Done" with links to their new
// archives, which the API then lists; a file that is no archive shows the server's refusal.
import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { closeBrowser, logInThroughUi, openUi, uiTest } from './browser.ts'

describe('upload view', () => {
  let app: TestServer
  let scratch: string
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'tankobun-ui-upload-'))
    app = await startTestServer()
    await app.idle()
  })
  afterAll(async () => {
    await closeBrowser()
    await app[Symbol.asyncDispose]()
    rmSync(scratch, { recursive: true, force: true })
  })

  uiTest(
    'uploads two archives with progress, and shows the refusal of a text file',
    async (shot) => {
      const first = await makeCbz(join(scratch, 'First Book.cbz'), { pages: 3, seed: 1 })
      const second = await makeCbz(join(scratch, 'Second Book.cbz'), { pages: 4, seed: 2 })
      const text = join(scratch, 'notes.txt')
      writeFileSync(text, 'not an archive\n')
      const cookie = await app.login()
      const { body: created } = await app.json('/api/categories', {
        method: 'PUT',
        cookie,
        body: new URLSearchParams({ name: 'Uploaded' }),
      })

      const ui = await openUi(app)
      shot.page = ui.page
      await logInThroughUi(app, ui)
      await ui.page.goto(app.url + '/#/upload')
      await ui.page.getByLabel('Add to category').selectOption({ label: 'Uploaded' })
      await ui.page.getByLabel('Archive files').setInputFiles([first, second])

      const uploads = ui.page.getByRole('list', { name: 'Uploads' })
      for (const name of ['First Book.cbz', 'Second Book.cbz']) {
        const row = uploads.getByRole('listitem', { name })
        await row.getByText('Done').waitFor()
        const bar = row.getByRole('progressbar')
        expect(await bar.getAttribute('value')).toBe(await bar.getAttribute('max'))
        await row.getByRole('link', { name: 'Read' }).waitFor()
      }

      const { body: archives } = await app.json<Wire[]>('/api/archives', { cookie })
      expect(archives.map((a) => a.title).sort()).toEqual(['First Book', 'Second Book'])
      const link = await uploads
        .getByRole('listitem', { name: 'First Book.cbz' })
        .getByRole('link', { name: 'Read' })
        .getAttribute('href')
      const firstId = archives.find((a) => a.title === 'First Book')!.arcid
      expect(link).toBe(`#/reader/${firstId}`)
      const { body: category } = await app.json(`/api/categories/${created.category_id}`, {
        cookie,
      })
      expect(category.archives.sort()).toEqual(archives.map((a) => a.arcid).sort())

      await ui.page.getByLabel('Archive files').setInputFiles(text)
      const refused = uploads.getByRole('listitem', { name: 'notes.txt' })
      await refused.getByText('Failed').waitFor()
      const message = await refused.getByRole('alert').textContent()
      expect(message?.length).toBeGreaterThan(0)
      // The server's words, not a generic one.
      const direct = new FormData()
      direct.set('file', new File(['not an archive\n'], 'notes.txt'))
      const answer = await app.json('/api/archives/upload', { method: 'PUT', cookie, body: direct })
      expect(message).toBe(answer.body.error)
      expect(ui.errors).toEqual([])
      await ui.context.close()
    },
  )
})
