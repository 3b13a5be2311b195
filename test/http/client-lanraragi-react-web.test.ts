// Contract test for lanraragi-react-web (repo hibikikuze4dan/lanraragi-react-web-v2, the maintained
// rewrite; the older hibikikuze4dan/lanraragi-react-web in the last describe block), a React web
// client served from its own origin (its Docker image or a Vite dev server), so every call is a
// cross-origin axios request: `enable_cors` and its origin in `cors_origins` are needed. Not run
// here; its calls are replayed below in the order of its main flows, through the real server.
//
// Where each call was found (hibikikuze4dan/lanraragi-react-web-v2):
// - src/requests/constants.js: the paths; every request goes to `${http|https}://${baseUrl}${path}`
//   (src/hooks/useUrls.js: the scheme toggle and a bare `host:port` typed by the user).
// - src/utils/getAuthorizationHeader.js, src/components/pages/settings/bearer-token-setting.jsx:
//   `Authorization: Bearer <key>`, the key pasted "base64 encoded" (no header when it is empty).
// - src/requests/requestServerInformation.js, src/hooks/useServerInfo.js: `GET /api/info` once,
//   reads `archives_per_page`, `cache_last_cleared`, `debug_mode`, `has_password`, `motd`, `name`,
//   `nofun_mode` (truthiness), `server_resizes_images`, `server_tracks_progress`,
//   `total_archives`, `total_pages_read`, `version`, `version_desc`, `version_name`. There is no
//   login or probe: every failed call is logged and answered with an empty default.
// - src/hooks/useArchiveThumbnail.js, src/requests/requestArchiveThumbnail.js: with `nofun_mode`
//   true the thumbnail `GET /api/archives/{id}/thumbnail` is fetched by axios with the key as a
//   blob; with it false the URL is put in an `<img src>` without any key.
// - src/hooks/useRandomArchives.js, src/requests/requestRandomArchives.js: the start page,
//   `GET /api/search/random?count=<archives rendered, 10>`, reads `data`.
// - src/hooks/useCategories.js, src/requests/requestAllCategories.js, src/redux/selectors.js:
//   `GET /api/categories`, an array sorted by `name`; static ones are those with `search === ""`,
//   membership is `archives.includes(arcid)`; the search select sends `category=<id>`.
// - src/hooks/useDatabaseStats.js, src/requests/requestDatabaseStatistics.js:
//   `GET /api/database/stats?minweight=5`, an array; reads `namespace`, `text`.
// - src/requests/requestSearchForArchives.js, src/hooks/useSearchPageLogic.js,
//   src/components/pages/search/search-page-buttons.jsx, src/constants.js: `GET /api/search` with
//   `filter`, `start` ("0", then page * 10), `sortby` (default `date_added`), `order` (`desc`),
//   `groupby_tanks` (true), `newonly`, `untaggedonly`, `category`; reads `data`, `draw`,
//   `recordsFiltered` (pages: Math.ceil(recordsFiltered / 10)), `recordsTotal`.
// - src/components/archive-card/*, dialog-view-archive-info/index.jsx, src/utils/makeTagsObject.js:
//   card fields `arcid`, `title`, `tags` (comma string, rating namespace), `filename`.
// - src/hooks/useReadingButtonLogic.js, useCurrentArchive.js, src/requests/getArchiveMetadata.js:
//   read = `GET /api/archives/{id}/metadata` (sent with a stray multipart Content-Type), then
//   `files`, then `PUT /api/archives/{id}/progress/1`.
// - src/hooks/useArchivePages.js, src/requests/requestArchivePages.js,
//   src/utils/requestMinionUntilFinished.js, src/requests/requestMinionJobStatus.js:
//   `GET /api/archives/{id}/files` reads `job`, `pages`; with a job it polls `GET /api/minion/{job}`
//   every 500 ms until `state` is failed, inactive or finished; page URLs are `pages[i]` with a
//   leading `.` dropped, after the base URL; fetched as blobs with the key in nofun mode
//   (src/requests/requestArchivePageBlob.js), else put in `<img src>`.
// - src/requests/putUpdateReadingProgression.js: reads `success`, `operation`, `id`, `page`,
//   `lastreadtime`.
// - src/hooks/useUpdateArchiveMetadata.js, useArchiveRating.js, requests/putUpdateToArchiveMetadata.js:
//   `PUT /api/archives/{id}/metadata`, multipart `title`, `tags`, `summary` (empty ones left out);
//   the rating path calls `successMessage.replace(...)`, so `successMessage` must be a string.
// - src/hooks/useRegenerateThumbnail.js, src/requests/putUpdateThumbnail.js:
//   `PUT /api/archives/{id}/thumbnail`, multipart with `page` only when it is not 0 or 1.
// - src/hooks/useCategories.js, src/requests/putUpdateToArchiveCategory.js:
//   `PUT /api/categories/{id}/{arcid}`, reads `success`, `successMessage`, `operation`.
// - src/hooks/useDeleteArchive.js, src/requests/deleteArchive.js: `DELETE /api/archives/{id}`,
//   reads `operation`, `success`, `id`, `filename`.
// - src/components/pages/settings/delete-search-cache-button.jsx, requests/deleteSearchCache.js:
//   `DELETE /api/search/cache`, success when `success` or `successMessage`.
// - History (src/hooks/useArchiveHistory.js) is local storage only; `isnew` is never read or
//   written; Tankoubons are only met as `TANK_` cards of the grouped search.
import { describe, expect, it, beforeAll, afterAll } from 'bun:test'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { expectPreflights, startWebClientWorld } from '../helpers/web-client.ts'

const ORIGIN = 'http://lrr-react.example:3000'

let app: TestServer
let key: string
let ids: Record<string, string>
let categoryId: string

/** getAuthorizationHeader: the base64 key after `Bearer`; the browser adds the page's origin. */
const clientHeaders = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${btoa(key)}`,
  origin: ORIGIN,
  ...extra,
})

/** One axios call as src/requests/* make them; the answer must be readable cross-origin. */
async function call(path: string, init: { method?: string; body?: FormData } = {}) {
  const res = await app.req(path, {
    method: init.method ?? 'GET',
    headers: clientHeaders(),
    body: init.body,
  })
  expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Wire }
}

/** useArchivePages: `${base}${page.replace(/^\./, "")}`. */
const pageLink = (page: string) => `${app.url}${page.replace(/^\./, '')}`

/** The blob fetch of requestArchivePageBlob / requestArchiveThumbnail: JPEG bytes, readable. */
async function expectImageBlob(url: string, headers: Record<string, string> = clientHeaders()) {
  const res = await fetch(url, { headers })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^image\//)
  if (headers.origin) expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  const bytes = new Uint8Array(await res.arrayBuffer())
  expect(bytes.length).toBeGreaterThan(0)
  return bytes
}

/** Card, info dialog and edit dialog fields. */
function expectCard(archive: Wire) {
  expect(archive.arcid).toMatch(/^[0-9a-f]{40}$/)
  expect(typeof archive.title).toBe('string')
  expect(typeof archive.tags).toBe('string')
  expect(typeof archive.filename).toBe('string')
  expect(typeof archive.summary).toBe('string')
}

/** requestMinionUntilFinished: polls until failed / inactive / finished. */
async function waitForMinion(job: number) {
  for (let i = 0; i < 100; i++) {
    const { status, body } = await call(`/api/minion/${job}`)
    expect(status).toBe(200)
    expect(typeof body.state).toBe('string')
    expect(typeof body.task).toBe('string')
    if (['failed', 'inactive', 'finished'].includes(body.state)) return body.state as string
    await Bun.sleep(50)
  }
  throw new Error(`job ${job} never reached a state the client stops on`)
}

beforeAll(async () => {
  let cookie: string
  ;({ app, cookie, key, ids } = await startWebClientWorld(
    ORIGIN,
    'lanraragi-react-web',
    (title) => `artist:${title.toLowerCase()}, language:english`,
  ))
  const category = await app.json('/api/categories', {
    method: 'PUT',
    cookie,
    body: new URLSearchParams({ name: 'Favourites' }),
  })
  expect(category.status).toBe(200)
  categoryId = category.body.category_id
  await app.jobsDone()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('lanraragi-react-web v2: connect (useServerInfo, getAuthorizationHeader)', () => {
  it('answers the preflight its Authorization header causes on every call, without credentials', async () => {
    const id = 'a'.repeat(40)
    await expectPreflights(app, ORIGIN, [
      ['/api/info', 'GET'],
      ['/api/search', 'GET'],
      [`/api/archives/${id}/page?path=001.jpg`, 'GET'],
      [`/api/archives/${id}/thumbnail`, 'PUT'],
      [`/api/archives/${id}/progress/1`, 'PUT'],
      [`/api/archives/${id}/metadata`, 'PUT'],
      [`/api/categories/SET_0000000000/${id}`, 'PUT'],
      [`/api/archives/${id}`, 'DELETE'],
      ['/api/search/cache', 'DELETE'],
    ])
  })

  it('answers /api/info with every field it stores, in the types it uses', async () => {
    const { status, body: info } = await call('/api/info')
    expect(status).toBe(200)
    expect(Number.isInteger(info.archives_per_page)).toBe(true)
    // useSearchPageLogic pages by 10 and shows data.slice(0, 10): a page must hold at least 10.
    expect(info.archives_per_page).toBeGreaterThanOrEqual(10)
    expect(Number.isInteger(info.cache_last_cleared)).toBe(true)
    expect(Number.isInteger(info.total_archives)).toBe(true)
    expect(info.total_archives).toBe(3)
    expect(Number.isInteger(info.total_pages_read)).toBe(true)
    for (const flag of ['debug_mode', 'has_password', 'server_resizes_images']) {
      expect(typeof info[flag]).toBe('boolean')
    }
    expect(info.server_tracks_progress).toBe(true)
    // nofun_mode is read by truthiness: true (the default) makes it send the key with images.
    expect(info.nofun_mode).toBe(true)
    for (const text of ['motd', 'name', 'version', 'version_desc', 'version_name']) {
      expect(typeof info[text]).toBe('string')
    }
  })

  it('refuses a wrong key with a 401 it can read, and reads nothing without one in nofun mode', async () => {
    const wrong = { authorization: `Bearer ${btoa('tkb_' + '0'.repeat(64))}`, origin: ORIGIN }
    const res = await app.req('/api/search/random?count=10', { headers: wrong })
    expect(res.status).toBe(401)
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    // An empty key field sends no header at all.
    const none = await app.req(`/api/archives/${ids.Alpha}/thumbnail`, {
      headers: { origin: ORIGIN },
    })
    expect(none.status).toBe(401)
  })
})

describe('lanraragi-react-web v2: random, categories, tag stats (the start page)', () => {
  it('gives count random archives under data, with the card fields', async () => {
    const { status, body } = await call('/api/search/random?count=10')
    expect(status).toBe(200)
    expect(Array.isArray(body.data)).toBe(true)
    expect(body.data).toHaveLength(3)
    for (const archive of body.data) expectCard(archive)
    const two = await call('/api/search/random?count=2')
    expect(two.body.data).toHaveLength(2)
  })

  it('serves each card thumbnail as an image blob with the key', async () => {
    for (const id of Object.values(ids)) {
      await expectImageBlob(`${app.url}/api/archives/${id}/thumbnail`)
    }
  })

  it('lists categories as an array; a static one has search "" and an archives array', async () => {
    const { status, body } = await call('/api/categories')
    expect(status).toBe(200)
    expect(Array.isArray(body)).toBe(true)
    const favourites = (body as unknown as Wire[]).find((c) => c.id === categoryId)
    expect(favourites).toBeDefined()
    expect(favourites!.name).toBe('Favourites')
    expect(favourites!.search).toBe('')
    expect(favourites!.archives).toEqual([])
  })

  it('answers the tag stats as an array of namespace and text', async () => {
    const { status, body } = await call('/api/database/stats?minweight=5')
    expect(status).toBe(200)
    expect(Array.isArray(body)).toBe(true)
    // No tag is on 5 archives here: minweight filters them all.
    expect(body).toHaveLength(0)
    const all = await call('/api/database/stats?minweight=1')
    const stats = all.body as unknown as Wire[]
    const english = stats.find((s) => s.namespace === 'language' && s.text === 'english')
    expect(english).toBeDefined()
    expect(english!.weight).toBe(3)
    for (const stat of stats) {
      expect(typeof stat.text).toBe('string')
      expect(stat.namespace === null || typeof stat.namespace === 'string').toBe(true)
    }
  })
})

describe('lanraragi-react-web v2: search page (requestSearchForArchives, useSearchPageLogic)', () => {
  const search = (params: Record<string, string>) =>
    call(`/api/search?${new URLSearchParams(params)}`)
  const defaults = {
    filter: '',
    start: '0',
    sortby: 'date_added',
    order: 'desc',
    groupby_tanks: 'true',
  }

  it('answers the default search (date_added, desc) with data and numeric totals', async () => {
    const { status, body } = await search(defaults)
    expect(status).toBe(200)
    expect(typeof body.recordsFiltered).toBe('number')
    expect(typeof body.recordsTotal).toBe('number')
    expect(body.recordsFiltered).toBe(3)
    expect(body.recordsTotal).toBe(3)
    expect(body.data.map((a: Wire) => a.title)).toEqual(['Beta', 'Gamma', 'Alpha'])
    for (const archive of body.data) expectCard(archive)
  })

  it('pages by start = page * 10 and filters by the typed filter', async () => {
    const past = await search({ ...defaults, start: '10' })
    expect(past.status).toBe(200)
    expect(past.body.data).toEqual([])
    expect(past.body.recordsFiltered).toBe(3)
    const filtered = await search({ ...defaults, filter: 'artist:beta' })
    expect(filtered.body.data.map((a: Wire) => a.title)).toEqual(['Beta'])
    expect(filtered.body.recordsFiltered).toBe(1)
  })

  it('takes newonly, untaggedonly and category as it sends them', async () => {
    const fresh = await search({ ...defaults, newonly: 'true' })
    expect(fresh.status).toBe(200)
    expect(fresh.body.recordsFiltered).toBe(3)
    const untagged = await search({ ...defaults, untaggedonly: 'true' })
    expect(untagged.status).toBe(200)
    // artist and language do not count as tags (LANraragi's list): all three are untagged.
    expect(untagged.body.recordsFiltered).toBe(3)
    const inCategory = await search({ ...defaults, category: categoryId })
    expect(inCategory.status).toBe(200)
    expect(inCategory.body.data).toEqual([])
  })
})

describe('lanraragi-react-web v2: reading (useReadingButtonLogic, useArchivePages)', () => {
  it('reads the metadata, even sent with a multipart Content-Type and no body', async () => {
    const res = await app.req(`/api/archives/${ids.Alpha}/metadata`, {
      headers: clientHeaders({ 'content-type': 'multipart/form-data' }),
    })
    expect(res.status).toBe(200)
    const archive = (await res.json()) as Wire
    expectCard(archive)
    expect(archive.arcid).toBe(ids.Alpha)
    expect(archive.title).toBe('Alpha')
    // LANraragi's `filename` is the file name without its extension.
    expect(archive.filename).toBe('Alpha')
    expect(archive.tags).toContain('artist:alpha')
  })

  it('lists the pages, polls a job to a state it stops on, and the page links fetch images', async () => {
    for (const [title, count] of [
      ['Alpha', 3],
      ['Beta', 4],
      ['Gamma', 2],
    ] as const) {
      const { status, body } = await call(`/api/archives/${ids[title]}/files`)
      expect(status).toBe(200)
      // A first read launches the extraction job the client waits for before showing pages.
      expect(typeof body.job).toBe('number')
      expect(body.job).toBeGreaterThan(0)
      expect(await waitForMinion(body.job)).toBe('finished')
      expect(body.pages).toHaveLength(count)
      const seen = new Set<string>()
      for (const page of body.pages as string[]) {
        expect(pageLink(page).startsWith(`${app.url}/api/archives/${ids[title]}/page?path=`)).toBe(
          true,
        )
        const bytes = await expectImageBlob(pageLink(page))
        seen.add(Buffer.from(bytes).toString('base64'))
      }
      expect(seen.size).toBe(count)
    }
  })

  it('stores progress 1 on opening and answers the fields it reads', async () => {
    const { status, body } = await call(`/api/archives/${ids.Beta}/progress/1`, { method: 'PUT' })
    expect(status).toBe(200)
    expect(body.success).toBe(1)
    expect(body.operation).toBe('update_progress')
    expect(body.id).toBe(ids.Beta)
    expect(Number(body.page)).toBe(1)
    expect(Number.isInteger(body.lastreadtime)).toBe(true)
    expect(body.lastreadtime).toBeGreaterThan(0)
    const info = await call('/api/info')
    expect(info.body.total_pages_read).toBeGreaterThanOrEqual(1)
  })
})

describe('lanraragi-react-web v2: archive actions (edit, rating, cover, category, delete)', () => {
  it('updates title, tags and summary from a multipart form, with a successMessage string', async () => {
    const form = new FormData()
    form.append('title', 'Alpha, revised')
    form.append('tags', 'date_added:1600000000, artist:alpha, language:english, rating:⭐⭐⭐')
    form.append('summary', 'A summary')
    const { status, body } = await call(`/api/archives/${ids.Alpha}/metadata`, {
      method: 'PUT',
      body: form,
    })
    expect(status).toBe(200)
    expect(body.success).toBe(1)
    expect(typeof body.operation).toBe('string')
    expect(typeof body.successMessage).toBe('string')
    const after = (await call(`/api/archives/${ids.Alpha}/metadata`)).body
    expect(after.title).toBe('Alpha, revised')
    expect(after.summary).toBe('A summary')
    // makeTagsObject / replaceRating find the stars back in the comma string.
    expect(after.tags.split(',').map((t: string) => t.trim())).toContain('rating:⭐⭐⭐')
  })

  it('sets the cover from the page in the multipart body', async () => {
    const before = await expectImageBlob(`${app.url}/api/archives/${ids.Beta}/thumbnail`)
    const form = new FormData()
    form.append('page', '3')
    const { status, body } = await call(`/api/archives/${ids.Beta}/thumbnail`, {
      method: 'PUT',
      body: form,
    })
    expect(status).toBe(200)
    expect(body.success).toBe(1)
    expect(body.operation).toBe('update_thumbnail')
    const after = await expectImageBlob(`${app.url}/api/archives/${ids.Beta}/thumbnail`)
    expect(Buffer.from(after).equals(Buffer.from(before))).toBe(false)
    // The same cover as page 3 set the documented way, in the query.
    const cookie = await app.login()
    await app.json(`/api/archives/${ids.Beta}/thumbnail?page=1`, { method: 'PUT', cookie })
    await app.json(`/api/archives/${ids.Beta}/thumbnail?page=3`, { method: 'PUT', cookie })
    const viaQuery = await expectImageBlob(`${app.url}/api/archives/${ids.Beta}/thumbnail`)
    expect(Buffer.from(viaQuery).equals(Buffer.from(after))).toBe(true)
    // Page 1 is sent as an empty multipart form.
    const reset = await call(`/api/archives/${ids.Beta}/thumbnail`, {
      method: 'PUT',
      body: new FormData(),
    })
    expect(reset.status).toBe(200)
    expect(reset.body.success).toBe(1)
    const back = await expectImageBlob(`${app.url}/api/archives/${ids.Beta}/thumbnail`)
    expect(Buffer.from(back).equals(Buffer.from(before))).toBe(true)
  })

  it('adds an archive to a static category, then finds it in archives and by category search', async () => {
    const { status, body } = await call(`/api/categories/${categoryId}/${ids.Gamma}`, {
      method: 'PUT',
    })
    expect(status).toBe(200)
    expect(body.success).toBe(1)
    expect(typeof body.successMessage).toBe('string')
    expect(typeof body.operation).toBe('string')
    const categories = (await call('/api/categories')).body as unknown as Wire[]
    expect(categories.find((c) => c.id === categoryId)!.archives).toEqual([ids.Gamma])
    const search = await call(
      `/api/search?${new URLSearchParams({ filter: '', start: '0', sortby: 'date_added', order: 'desc', groupby_tanks: 'true', category: categoryId })}`,
    )
    expect(search.body.data.map((a: Wire) => a.arcid)).toEqual([ids.Gamma])
  })

  it('resets the search cache with success', async () => {
    const { status, body } = await call('/api/search/cache', { method: 'DELETE' })
    expect(status).toBe(200)
    expect(body.success || body.successMessage).toBeTruthy()
  })

  it('shows a Tankoubon of the grouped search as a card with the fields it reads', async () => {
    const cookie = await app.login()
    const tank = await app.json('/api/tankoubons', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'Series' }),
    })
    expect(tank.status).toBe(200)
    const tankId = tank.body.tankoubon_id as string
    expect(
      (await app.json(`/api/tankoubons/${tankId}/${ids.Gamma}`, { method: 'PUT', cookie })).status,
    ).toBe(200)
    const grouped = await call(
      `/api/search?${new URLSearchParams({ filter: '', start: '0', sortby: 'date_added', order: 'desc', groupby_tanks: 'true' })}`,
    )
    const card = (grouped.body.data as Wire[]).find((a) => a.arcid === tankId)
    expect(card).toBeDefined()
    expect(typeof card!.title).toBe('string')
    expect(typeof card!.tags).toBe('string')
    // Opening it goes through the archive routes, which refuse a TANK_ id (LANraragi too): the
    // client then shows no pages (docs/clients.md).
    expect((await call(`/api/archives/${tankId}/files`)).status).toBe(400)

    // With tankoubons_as_archives on, its read flow opens the card as one long archive.
    const on = await app.json('/api/settings', {
      method: 'PUT',
      cookie,
      json: { tankoubons_as_archives: true },
    })
    expect(on.status).toBe(200)
    const meta = await call(`/api/archives/${tankId}/metadata`)
    expect(meta.status).toBe(200)
    expect(meta.body.arcid).toBe(tankId)
    expect(meta.body.title).toBe('Series')
    expect(meta.body.pagecount).toBe(2)
    const files = await call(`/api/archives/${tankId}/files`)
    expect(files.status).toBe(200)
    if (files.body.job) await waitForMinion(files.body.job)
    expect(files.body.pages).toHaveLength(2)
    for (const page of files.body.pages as string[]) await expectImageBlob(pageLink(page))
    const progress = await call(`/api/archives/${tankId}/progress/1`, { method: 'PUT' })
    expect(progress.status).toBe(200)
    expect(progress.body.success).toBe(1)
    await expectImageBlob(`${app.url}/api/archives/${tankId}/thumbnail`)
    await app.json('/api/settings', {
      method: 'PUT',
      cookie,
      json: { tankoubons_as_archives: false },
    })
    expect((await app.json(`/api/tankoubons/${tankId}`, { method: 'DELETE', cookie })).status).toBe(
      200,
    )
  })

  it('deletes an archive and answers operation, success, id and filename', async () => {
    const { status, body } = await call(`/api/archives/${ids.Alpha}`, { method: 'DELETE' })
    expect(status).toBe(200)
    expect(body.success).toBe(1)
    expect(body.operation).toBe('delete_archive')
    expect(body.id).toBe(ids.Alpha)
    expect(body.filename).toBe('Alpha.cbz')
    expect((await call(`/api/archives/${ids.Alpha}/metadata`)).status).not.toBe(200)
  })
})

describe('lanraragi-react-web (the older repo): calls v2 no longer makes', () => {
  // hibikikuze4dan/lanraragi-react-web: src/requests/search.js (`start=-1&length=-1`, and
  // LAST_READ_URL `?filter=&sortby=lastread`, reading `data.data`), src/requests/categories.js
  // (`GET /api/archives/{id}/categories` reading `categories`; PUT category with `?key=`),
  // src/requests/delete.js (`?key=` beside the header), src/requests/tags.js
  // (`/api/database/stats?minweight=1`, dropping date_added and source), src/requests/minion.js and
  // src/components/image-list/useImageListLogic.js (one minion read, `state === "finished"`).
  // These run after the v2 flows above: Alpha is deleted, Beta has been read, Gamma is in the category.
  it('answers start=-1&length=-1 with every match unpaged', async () => {
    const { status, body } = await call(
      '/api/search?filter=&sortby=title&order=asc&start=-1&length=-1',
    )
    expect(status).toBe(200)
    expect(body.data.map((a: Wire) => a.title)).toEqual(['Beta', 'Gamma'])
    expect(body.recordsFiltered).toBe(2)
  })

  it('sorts by lastread, keeping only archives read', async () => {
    const { status, body } = await call('/api/search?filter=&sortby=lastread')
    expect(status).toBe(200)
    // Beta was read; Gamma through its Tankoubon opened as one archive above.
    expect(body.data.map((a: Wire) => a.arcid).sort()).toEqual([ids.Beta, ids.Gamma].sort())
  })

  it('reads the categories of an archive under categories', async () => {
    const { status, body } = await call(`/api/archives/${ids.Gamma}/categories`)
    expect(status).toBe(200)
    expect(body.categories.map((c: Wire) => c.id)).toEqual([categoryId])
  })

  it('ignores the ?key= it adds beside the header', async () => {
    const res = await call(`/api/categories/${categoryId}/${ids.Beta}?key=${key}`, {
      method: 'PUT',
    })
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(1)
  })
})

describe('lanraragi-react-web v2 with nofun_mode off: plain <img> links', () => {
  it('loads thumbnails and pages without any key, from the links it builds', async () => {
    const cookie = await app.login()
    const off = await app.json('/api/settings', {
      method: 'PUT',
      cookie,
      json: { nofun_mode: false },
    })
    expect(off.status).toBe(200)
    const info = await app.json('/api/info', { headers: { origin: ORIGIN } })
    expect(info.body.nofun_mode).toBe(false)
    await expectImageBlob(`${app.url}/api/archives/${ids.Beta}/thumbnail`, {})
    const files = await app.json(`/api/archives/${ids.Beta}/files`)
    expect(files.status).toBe(200)
    for (const page of files.body.pages as string[]) await expectImageBlob(pageLink(page), {})
  })
})
