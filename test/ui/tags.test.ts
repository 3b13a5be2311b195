// The tag browser (#/tags, issue 26 §6): every namespace with its tags and their archive counts
// from /api/database/stats, a filter, the long namespaces folded, and each tag a library search.
import { describe, expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

/** 70 parody tags on one archive: more than a namespace shows before "Show all". */
const MANY = Array.from({ length: 70 }, (_, i) => `parody:work ${String(i).padStart(2, '0')}`)
const TAGS: Record<string, string> = {
  One: 'artist:alice, language:english, plain tag',
  Two: 'artist:alice, artist:bob, language:japanese',
  Three: `artist:alice, ${MANY.join(', ')}`,
}

describe('tag browser', () => {
  let app: TestServer
  useUiServer(
    {
      beforeStart: async (dir) => {
        await Promise.all(
          Object.keys(TAGS).map((t, i) => makeCbz(join(dir, `${t}.cbz`), { pages: 1, seed: i })),
        )
      },
    },
    async (started) => {
      app = started
      await app.idle()
      const cookie = await app.login()
      const ids = await app.idsByTitle(cookie)
      for (const [title, tags] of Object.entries(TAGS)) {
        const res = await app.json(`/api/archives/${ids[title]}/metadata`, {
          method: 'PUT',
          json: { tags },
          cookie,
        })
        expect(res.status).toBe(200)
      }
    },
  )

  uiTest('lists every namespace and its tags with counts, filters, and searches', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.getByRole('link', { name: 'Tags', exact: true }).click()
    const artist = ui.page.getByRole('region', { name: 'artist' })
    await artist.waitFor()
    const names = await ui.page.locator('.tags-group h2').allTextContents()
    expect(names).toEqual(['artist (2)', 'language (2)', 'parody (70)', 'no namespace (1)'])
    // Most used first, each with its archive count.
    expect(await artist.locator('.tag').allTextContents()).toEqual(['alice3', 'bob1'])
    // A long namespace shows its first 60, the rest on demand.
    const parody = ui.page.getByRole('region', { name: 'parody' })
    expect(await parody.locator('.tag').count()).toBe(60)
    await parody.getByRole('button', { name: 'Show all 70' }).click()
    expect(await parody.locator('.tag').count()).toBe(70)
    // The filter narrows namespaces and values.
    await ui.page.getByLabel('Filter').fill('japan')
    await ui.page.locator('.tags-group h2').getByText('language (1)').waitFor()
    expect(await ui.page.locator('.tags-group').count()).toBe(1)
    // A tag is a library search for exactly it.
    await ui.page.locator('.tag', { hasText: 'japanese' }).click()
    await ui.page.locator('.lib-card-title').getByText('Two').waitFor()
    expect(await ui.page.locator('.lib-card-title').allTextContents()).toEqual(['Two'])
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
