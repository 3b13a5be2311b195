// Jobs console: a job started from the Maintenance page (thumbnail regeneration) shows its progress
// there, then in #/jobs as finished with a full progress bar; clearing it removes it for the server
// too.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

describe('jobs console', () => {
  let app: TestServer
  let cookie: string
  useUiServer(
    {
      async beforeStart(content) {
        await makeCbz(join(content, 'one.cbz'), { pages: 2 })
        await makeCbz(join(content, 'two.cbz'), { pages: 2 })
      },
    },
    async (started) => {
      app = started
      cookie = await app.login()
      await app.idle()
      await app.jobsDone()
    },
  )

  uiTest(
    'a thumbnail job started in Maintenance finishes in the console and is cleared',
    async (shot) => {
      const ui = await openUi(app)
      shot.page = ui.page
      await logInThroughUi(app, ui)
      await ui.page.goto(app.url + '/#/maintenance')
      await ui.page.getByRole('button', { name: 'Regenerate missing thumbnails' }).click()
      const inPlace = ui.page.getByRole('progressbar', { name: 'Regenerate thumbnails progress' })
      await inPlace.waitFor()
      await ui.page.locator('.job-progress[data-state="finished"]').waitFor()
      expect(await inPlace.getAttribute('value')).toBe('100')

      const { body } = await app.json<Wire>('/api/jobs', { cookie })
      const job = (body.jobs as Wire[]).find((j) => j.name === 'regen_thumbs')!
      expect(job.state).toBe('finished')

      await ui.page.getByRole('link', { name: 'Jobs', exact: true }).click()
      const card = ui.page.locator(`li.job[aria-label="regen_thumbs #${job.id}"]`)
      await card.waitFor()
      expect(await card.getAttribute('data-state')).toBe('finished')
      const bar = card.getByRole('progressbar', { name: `regen_thumbs #${job.id} progress` })
      expect(await bar.getAttribute('value')).toBe('100')

      await card.getByRole('button', { name: 'Details' }).click()
      await card.locator('pre.job-detail').getByText('"result"').waitFor()

      await card.getByRole('button', { name: `Clear job ${job.id}` }).click()
      await card.waitFor({ state: 'detached' })
      const after = await app.json<Wire>('/api/jobs', { cookie })
      expect((after.body.jobs as Wire[]).some((j) => j.id === job.id)).toBe(false)

      // Clear finished empties the rest of the finished history (the initial scan's jobs).
      await ui.page.getByRole('button', { name: 'Clear finished' }).click()
      await ui.page.getByText(/^Cleared \d+ finished jobs\.$/).waitFor()
      const rest = await app.json<Wire>('/api/jobs', { cookie })
      expect((rest.body.jobs as Wire[]).filter((j) => j.state === 'finished')).toEqual([])
      expect(ui.errors).toEqual([])
      await ui.context.close()
    },
  )
})
