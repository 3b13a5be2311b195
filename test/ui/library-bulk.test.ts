// Many archives at once from the library (issue 26 §6, what Komga and Kavita users would miss):
// select archives in the grid, then add them to a category, add and remove tags, queue a plugin
// on them, delete them.
// Each change is checked through the API.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, until, useUiServer } from './browser.ts'

const TITLES = ['Anna', 'Bert', 'Cora', 'Dirk']

describe('library selection', () => {
  let app: TestServer
  let cookie: string
  let ids: Record<string, string> = {}
  let category = ''
  useUiServer(
    {
      beforeStart: async (dir) => {
        await Promise.all(
          TITLES.map((title, i) => makeCbz(join(dir, `${title}.cbz`), { pages: 1, seed: 40 + i })),
        )
      },
    },
    async (started) => {
      app = started
      await app.idle()
      cookie = await app.login()
      ids = await app.idsByTitle(cookie)
      await app.json(`/api/archives/${ids.Anna}/metadata`, {
        method: 'PUT',
        json: { tags: 'misc:old' },
        cookie,
      })
      const created = await app.json('/api/categories', {
        method: 'PUT',
        json: { name: 'Picked' },
        cookie,
      })
      category = created.body.category_id as string
    },
  )

  const tagsOf = async (title: string) => {
    const res = await app.json(`/api/archives/${ids[title]}/metadata`, { cookie })
    return String(res.body.tags)
      .split(', ')
      .filter((t) => t && !t.startsWith('date_added:'))
  }

  uiTest(
    'adds to a category, adds and removes tags, queues a plugin, deletes the selection',
    async (shot) => {
      const ui = await openUi(app)
      shot.page = ui.page
      await logInThroughUi(app, ui)
      await ui.page.locator('.lib-card-title').getByText('Dirk').waitFor()
      await ui.page.getByRole('button', { name: 'Select', exact: true }).click()
      // A checkbox picks, and so does a click on the cover (which no longer opens the book).
      await ui.page.getByRole('checkbox', { name: 'Select Anna' }).check()
      await ui.page.locator('.lib-card-open', { hasText: 'Bert' }).click()
      expect(ui.page.url()).not.toContain('reader')
      const bar = ui.page.getByRole('region', { name: 'Selected archives' })
      await bar.getByText('2 archives selected').waitFor()

      await bar.getByLabel('Category').selectOption(category)
      await bar.getByRole('button', { name: 'Add to category' }).click()
      await until(
        () => app.json(`/api/categories/${category}`, { cookie }).then((r) => r.body as Wire),
        (body) => [...(body.archives ?? [])].sort().join() === [ids.Anna, ids.Bert].sort().join(),
      )

      await bar.getByLabel('Tags (comma-separated)').fill('artist:zed, misc:new')
      await bar.getByRole('button', { name: 'Add tags' }).click()
      await until(
        async () => ({ anna: await tagsOf('Anna'), bert: await tagsOf('Bert') }),
        (t) => t.bert.includes('misc:new') && t.anna.includes('misc:new'),
      )
      expect((await tagsOf('Anna')).sort()).toEqual(['artist:zed', 'misc:new', 'misc:old'])
      expect((await tagsOf('Bert')).sort()).toEqual(['artist:zed', 'misc:new'])
      expect(await tagsOf('Cora')).toEqual([])

      await bar.getByLabel('Tags (comma-separated)').fill('MISC:NEW, misc:old')
      await bar.getByRole('button', { name: 'Remove tags' }).click()
      await until(
        async () => ({ anna: await tagsOf('Anna'), bert: await tagsOf('Bert') }),
        (t) => !t.anna.includes('misc:new') && !t.bert.includes('misc:new'),
      )
      expect(await tagsOf('Anna')).toEqual(['artist:zed'])
      expect(await tagsOf('Bert')).toEqual(['artist:zed'])

      // A metadata plugin queued on each selected archive: one plugin_exec job per archive.
      await bar.getByLabel('Metadata plugin').selectOption('metadata/filename')
      await bar.getByRole('button', { name: 'Run plugin' }).click()
      const queued = () =>
        app.deps.jobs
          .list()
          .filter((job) => job.name === 'plugin_exec')
          .map((job) => JSON.stringify(job))
      await until(
        async () => ({ jobs: queued() }),
        (found) => found.jobs.length === 2,
      )
      for (const title of ['Anna', 'Bert'])
        expect(queued().some((job) => job.includes(ids[title]!))).toBe(true)
      await app.jobsDone()

      await bar.getByRole('button', { name: 'Delete' }).click()
      await ui.page.getByRole('button', { name: 'Confirm' }).click()
      await ui.page.getByText('2 archives', { exact: true }).waitFor()
      for (const title of ['Anna', 'Bert']) {
        const res = await app.json(`/api/archives/${ids[title]}/metadata`, { cookie })
        // LANraragi's answer for an id it does not know (docs/api.md).
        expect({ title, status: res.status, gone: /doesn't exist/.test(res.body.error) }).toEqual({
          title,
          status: 400,
          gone: true,
        })
      }
      expect((await ui.page.locator('.lib-card-title').allTextContents()).sort()).toEqual([
        'Cora',
        'Dirk',
      ])
      expect(ui.errors).toEqual([])
      await ui.context.close()
    },
  )
})
