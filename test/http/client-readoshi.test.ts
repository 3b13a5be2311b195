// Contract test for Readoshi (repo Kelcoin/Readoshi, formerly LANraragi-React-Reader), a React
// LANraragi web client served from its own origin (its nginx or a Vite dev server), so every call is
// a cross-origin fetch that needs `enable_cors` and its origin in `cors_origins`. Not run here; its
// calls are replayed below in the order of its main flows, through the real server.
//
// Where each call was found (Kelcoin/Readoshi):
// - src/lib/api.js: every API call goes to `${server}/api${endpoint}` with
//   `Authorization: Bearer ${btoa(key)}` (JSON body only for a body; writes carry their fields in the
//   query string); `checkServerStatus` (the connect form, src/App.jsx) is `GET /api/info`, any non-2xx
//   refused, 401 shown as a bad key; `readResponse` parses any 2xx body as JSON, an empty one as null;
//   `search` (`filter`, `start`, `sortby`, `order`), `clearSearchCache` (`DELETE /search/cache`),
//   `getRandom` (`/search/random?count=`), `getUntaggedArchives` (`/archives/untagged`, ids or
//   objects), `getArchive` (`/archives/{id}/metadata`), `updateArchiveMetadata` (PUT with `title`,
//   `tags`, `summary` in the query), `getMetadataPlugins`, `uploadArchive` (PUT multipart `file`),
//   `getArchiveFiles`, `deleteArchive`, `setArchiveThumbnail` (`PUT thumbnail?page=`),
//   `downloadArchive` (reads `Content-Disposition`), `getArchiveThumbnail` (`page`,
//   `no_fallback=true`; 202 = not ready yet, retried), `queueArchivePageThumbnails`
//   (`POST files/thumbnails`), `extractArchive` (fallback when `files` fails), `updateProgress`
//   (`PUT progress/{page}`), `getCategories`, `getServerInfo`.
// - src/lib/serverInfoCache.js: `/api/info` booleans may be 0/1; progress is synced only when
//   `server_tracks_progress` then equals `true`.
// - src/pages/Home.jsx: server probe (`/api/info`), categories (a click appends
//   `cat.search || "category:<name>$"` to the filter), random picks (`res.data`), the archive list
//   (`res.data`, total from `recordsFiltered`; more pages while a page holds >= 50), untagged mode
//   (ids, then `metadata` of each), `DELETE /search/cache` before a manual or timed refresh.
// - src/components/ArchiveCard.jsx: `GET /api/archives/{id}/thumbnail` with the key header (a
//   non-2xx is an error, a 2xx body is shown as the image); reads `arcid`, `title`, `tags` (comma
//   string, `date_added:` tag), `pagecount`, `progress`.
// - src/pages/Reader.jsx: `metadata` (`isnew` "true"/true/1 marks New, which it clears by
//   `PUT progress/1`; `progress` via parseInt; `pagecount`; `size`; `tags` for `source:`), `files`
//   (`pages`; `./`-relative or root-relative URLs prefixed with the server URL, fetched with the key
//   header), progress on every page turn while `server_tracks_progress`, drawer thumbnails
//   (`POST files/thumbnails`, then `thumbnail?page=N&no_fallback=true`), `PUT thumbnail?page=`
//   (set cover), random panel (`/search/random?count=16`).
// - src/lib/history.js, src/lib/archiveMetadataCache.js, src/lib/historyMaintenance.js: history
//   entries are re-read by `metadata`; a 400 or 404 there drops the entry; `progress` overrides the
//   local page while the server tracks progress.
// - src/lib/archiveProgress.js: clearing progress calls `PUT progress/0`, falling back to
//   `progress/1` when that fails.
// - src/lib/categories.js: `GET /api/categories`, an array.
//
// The same author's LANraragi-React-Reader (Kelcoin/LANraragi-React-Reader, src/lib/api.js), which
// Readoshi grew out of, makes the calls above plus, in its last describe block below: `search` with
// `category=<id>` and `untaggedonly=true`, `GET /api/archives`, `waitForMinionJob` (polls
// `/api/minion/{job}` until `state` is "finished", fails on "failed"/"error" with `error`),
// `createCategory` (`PUT /api/categories`, form body `name`), `PUT`/`DELETE
// /api/categories/{id}/{arcid}`, and `PUT progress/0?force=1` to clear progress.
import { describe, expect, it, beforeAll, afterAll } from 'bun:test'
import { join } from 'node:path'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { expectPreflights, startWebClientWorld } from '../helpers/web-client.ts'
import { makeCbz } from '../helpers/fixtures.ts'

const ORIGIN = 'https://readoshi.example'

let app: TestServer
let key: string
let ids: Record<string, string>

/** The client's headers: the key base64-encoded after `Bearer`, from its own origin. */
const clientHeaders = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${btoa(key)}`,
  origin: ORIGIN,
  ...extra,
})

/** `fetch(`${base}/api${endpoint}`)` as src/lib/api.js `request` sends it. */
async function api(endpoint: string, method = 'GET', body?: unknown) {
  const headers: Record<string, string> = clientHeaders()
  if (body) headers['content-type'] = 'application/json'
  const res = await app.req(`/api${endpoint}`, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  })
  // Readable cross-origin only with the CORS header; the client would see a network error.
  expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  const text = await res.text()
  return { status: res.status, ok: res.ok, body: (text ? JSON.parse(text) : null) as Wire }
}

/** The archive fields a card, the reader and the history read, with the types they expect. */
function expectArchiveCard(archive: Wire) {
  expect(archive.arcid).toMatch(/^[0-9a-f]{40}$/)
  expect(typeof archive.title).toBe('string')
  expect(typeof archive.tags).toBe('string')
  expect(archive.tags).toMatch(/(?:^|,\s*)date_added:\d+/)
  expect(Number.isInteger(archive.pagecount)).toBe(true)
  expect(Number.isFinite(Number.parseInt(String(archive.progress), 10))).toBe(true)
  expect(['true', 'false']).toContain(archive.isnew)
  expect(typeof archive.lastreadtime).toBe('number')
}

/** Reader.jsx `normalizePageUrl`: `./x` and `/x` get the server URL in front. */
function normalizePageUrl(raw: string, serverUrl: string) {
  const url = raw.replace(/^\.\/+/, '/').replace(/\/page&path=/, '/page?path=')
  if (!url.startsWith('http')) return `${serverUrl}${url.startsWith('/') ? url : `/${url}`}`
  return url
}

beforeAll(async () => {
  ;({ app, key, ids } = await startWebClientWorld(
    ORIGIN,
    'Readoshi',
    (title) => `artist:${title.toLowerCase()}, source:e-hentai.org/g/1/a`,
  ))
  await app.jobsDone()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('Readoshi: connect (App.jsx checkServerStatus, serverInfoCache.js)', () => {
  it('answers the preflight its Authorization header causes, without credentials', async () => {
    await expectPreflights(app, ORIGIN, [
      ['/api/info', 'GET'],
      [`/api/archives/${'a'.repeat(40)}/progress/2`, 'PUT'],
      ['/api/search/cache', 'DELETE'],
    ])
  })

  it('accepts the base64 key on /api/info and answers the fields it reads', async () => {
    const { status, body: info } = await api('/info')
    expect(status).toBe(200)
    // normalizeServerInfo turns only 0/1 into booleans; progress sync needs exactly true after it.
    for (const field of ['has_password', 'debug_mode', 'nofun_mode', 'server_resizes_images']) {
      expect([true, false, 0, 1]).toContain(info[field])
    }
    expect([true, 1]).toContain(info.server_tracks_progress)
    expect([true, false, 0, 1]).toContain(info.authenticated_progress)
    expect(typeof info.version).toBe('string')
    expect(typeof info.name).toBe('string')
  })

  it('lets a wrong key through /api/info (open, SPEC), then answers its first read with a 401', async () => {
    // checkServerStatus treats any 2xx as connected, so a mistyped key is only caught by the
    // next call (Home.jsx search), whose 401 it shows as a bad key: it must be readable cross-origin.
    const headers = { authorization: `Bearer ${btoa('tkb_' + '0'.repeat(64))}`, origin: ORIGIN }
    expect((await app.req('/api/info', { headers })).status).toBe(200)
    const res = await app.req('/api/search?filter=&start=0&sortby=date_added&order=desc', {
      headers,
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  })
})

describe('Readoshi: home (Home.jsx, categories.js, ArchiveCard.jsx)', () => {
  it('lists categories as an array with id, name and search', async () => {
    const cookie = await app.login()
    const made = await app.json('/api/categories?name=Favs', { method: 'PUT', cookie })
    expect(made.status).toBe(200)
    await app.json(`/api/categories/${made.body.category_id}/${ids.Alpha}`, {
      method: 'PUT',
      cookie,
    })
    const { status, body } = await api('/categories')
    expect(status).toBe(200)
    expect(Array.isArray(body)).toBe(true)
    const favs = (body as unknown as Wire[]).find((c) => c.name === 'Favs')!
    expect(favs.id).toMatch(/^SET_\d{10}$/)
    expect(typeof favs.search).toBe('string')
    expect(favs.archives).toEqual([ids.Alpha])
    expect(['0', '1']).toContain(favs.pinned)
  })

  it('answers random picks in data with the card fields', async () => {
    const { status, body } = await api('/search/random?count=16')
    expect(status).toBe(200)
    expect(body.data).toHaveLength(3)
    for (const archive of body.data) expectArchiveCard(archive)
  })

  it('clears the search cache before a refresh', async () => {
    const { status } = await api('/search/cache', 'DELETE')
    expect(status).toBe(200)
  })

  it('lists archives newest first by date_added, with the total in recordsFiltered', async () => {
    const { status, body } = await api('/search?filter=&start=0&sortby=date_added&order=desc')
    expect(status).toBe(200)
    expect(body.data.map((a: Wire) => a.title)).toEqual(['Beta', 'Gamma', 'Alpha'])
    expect(body.recordsFiltered).toBe(3)
    for (const archive of body.data) expectArchiveCard(archive)
    const next = await api('/search?filter=&start=1&sortby=date_added&order=desc')
    expect(next.body.data.map((a: Wire) => a.title)).toEqual(['Gamma', 'Alpha'])
    expect(next.body.recordsFiltered).toBe(3)
  })

  it('keeps archives_per_page at 50 or more, or its infinite scroll stops after one page', async () => {
    // Readoshi asks for the next page only while a page holds 50 or more (ARCHIVE_PAGE_SIZE).
    const { body: info } = await api('/info')
    expect(Number(info.archives_per_page)).toBeGreaterThanOrEqual(50)
  })

  it('filters by a tag the way a tag click builds it (`ns:value, `)', async () => {
    const filter = encodeURIComponent('artist:beta, ')
    const { status, body } = await api(
      `/search?filter=${filter}&start=0&sortby=date_added&order=desc`,
    )
    expect(status).toBe(200)
    expect(body.data.map((a: Wire) => a.arcid)).toEqual([ids.Beta])
    expect(body.recordsFiltered).toBe(1)
  })

  it('takes the category token a category click appends (`category:<name>$`)', async () => {
    // For a static category `search` is empty, so Readoshi searches the tag `category:Favs$`: in
    // LANraragi's syntax (and ours) that is a tag namespace, not category membership.
    const filter = encodeURIComponent('category:Favs$, ')
    const { status, body } = await api(
      `/search?filter=${filter}&start=0&sortby=date_added&order=desc`,
    )
    expect(status).toBe(200)
    expect(Array.isArray(body.data)).toBe(true)
    expect(Number.isFinite(Number(body.recordsFiltered))).toBe(true)
  })

  it('answers untagged ids in a form normalizeUntaggedArchiveIds reads', async () => {
    const { status, body } = await api('/archives/untagged')
    expect(status).toBe(200)
    const items = Array.isArray(body) ? body : (body.data ?? body.archives ?? body.ids)
    expect(Array.isArray(items)).toBe(true)
    for (const item of items as unknown[]) {
      expect(typeof item === 'string' ? item : (item as Wire).arcid).toMatch(/^[0-9a-f]{40}$/)
    }
  })

  it('serves covers as image bytes with the key header, never a JSON 2xx', async () => {
    for (const id of Object.values(ids)) {
      const res = await app.req(`/api/archives/${id}/thumbnail`, { headers: clientHeaders() })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^image\//)
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0)
    }
  })
})

describe('Readoshi: reader (Reader.jsx)', () => {
  it('opens an archive: metadata, New cleared by progress/1, files, pages', async () => {
    const id = ids.Gamma!
    const { status, body: meta } = await api(`/archives/${id}/metadata`)
    expect(status).toBe(200)
    expectArchiveCard(meta)
    expect(meta.isnew).toBe('true')
    expect(meta.pagecount).toBe(2)
    expect(meta.size).toBeGreaterThan(0)
    expect(meta.tags.split(',').map((t: string) => t.trim())).toContain('source:e-hentai.org/g/1/a')

    // archiveHasNewMarker(meta) -> PUT progress/1 (its only way to clear New).
    const cleared = await api(`/archives/${id}/progress/1`, 'PUT')
    expect(cleared.status).toBe(200)

    const files = await api(`/archives/${id}/files`)
    expect(files.status).toBe(200)
    expect(files.body.pages).toHaveLength(2)
    const pages = (files.body.pages as string[]).map((url) => normalizePageUrl(url, app.url))
    for (const url of pages) {
      expect(url.startsWith(`${app.url}/api/archives/${id}/page?`)).toBe(true)
      const res = await fetch(url, { headers: clientHeaders() })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/jpeg')
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8])
    }
  })

  it('records progress on each page turn; metadata then carries progress and lastreadtime', async () => {
    const id = ids.Beta!
    const before = Math.floor(Date.now() / 1000)
    for (const page of [1, 2, 3]) {
      const res = await api(`/archives/${id}/progress/${page}`, 'PUT')
      expect(res.status).toBe(200)
      expect(res.body.page).toBe(page)
    }
    const { body: meta } = await api(`/archives/${id}/metadata`)
    expect(Number.parseInt(String(meta.progress), 10)).toBe(3)
    expect(meta.lastreadtime).toBeGreaterThanOrEqual(before)
  })

  it('queues page thumbnails for the drawer, then serves them; 202 means not yet', async () => {
    const id = ids.Alpha!
    const queued = await api(`/archives/${id}/files/thumbnails`, 'POST')
    expect([200, 202]).toContain(queued.status)
    if (queued.status === 202) expect(Number.isInteger(Number(queued.body.job))).toBe(true)
    for (const page of [1, 2, 3]) {
      let res: Response | null = null
      for (let attempt = 0; attempt < 50; attempt++) {
        res = await app.req(`/api/archives/${id}/thumbnail?page=${page}&no_fallback=true`, {
          headers: clientHeaders(),
        })
        if (res.status !== 202) break
        const job = (await res.json()) as Wire
        expect(job.job).toBeDefined()
        await Bun.sleep(100)
      }
      expect(res!.status).toBe(200)
      expect(res!.headers.get('content-type')).toMatch(/^image\//)
      expect(res!.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    }
  })

  it('sets the cover from the page shown (PUT thumbnail?page=)', async () => {
    const { status, body } = await api(`/archives/${ids.Alpha}/thumbnail?page=2`, 'PUT')
    expect(status).toBe(200)
    expect(body.success).toBe(1)
  })

  it('clears progress: progress/0 is refused without force, its progress/1 fallback works', async () => {
    // archiveProgress.js sends PUT progress/0 (no `force`), then progress/1 when that fails.
    const id = ids.Beta!
    const zero = await api(`/archives/${id}/progress/0`, 'PUT')
    expect(zero.status).toBe(400)
    const one = await api(`/archives/${id}/progress/1`, 'PUT')
    expect(one.status).toBe(200)
    const { body: meta } = await api(`/archives/${id}/metadata`)
    expect(meta.progress).toBe(1)
    // With LANraragi's `force` (lanraragi-react-web's spelling) page 0 clears it.
    const forced = await api(`/archives/${id}/progress/0?force=1`, 'PUT')
    expect(forced.status).toBe(200)
    expect((await api(`/archives/${id}/metadata`)).body.progress).toBe(0)
  })

  it('answers an unknown archive with a 400 or 404, which drops it from the history', async () => {
    const { status } = await api(`/archives/${'b'.repeat(40)}/metadata`)
    expect([400, 404]).toContain(status)
  })

  it('opens a Tankoubon card as one archive once tankoubons_as_archives is on', async () => {
    const cookie = await app.login()
    const tank = await app.json('/api/tankoubons', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'Both Books' }),
    })
    const tankId = tank.body.tankoubon_id as string
    const put = await app.json(`/api/tankoubons/${tankId}`, {
      method: 'PUT',
      cookie,
      json: { archives: [ids.Alpha, ids.Beta] },
    })
    expect(put.status).toBe(200)
    const grouped = await api(`/search?${new URLSearchParams({ filter: 'Both Books' })}`)
    expect((grouped.body.data as Wire[]).map((a) => a.arcid)).toContain(tankId)
    // Off (the default): the card's metadata is a 400, which Readoshi takes for a gone archive.
    expect((await api(`/archives/${tankId}/metadata`)).status).toBe(400)

    await app.json('/api/settings', {
      method: 'PUT',
      cookie,
      json: { tankoubons_as_archives: true },
    })
    const { status, body: meta } = await api(`/archives/${tankId}/metadata`)
    expect(status).toBe(200)
    expect(meta.title).toBe('Both Books')
    expect(meta.pagecount).toBe(7)
    expect(['true', 'false']).toContain(meta.isnew)
    expect(Number.isFinite(Number.parseInt(String(meta.progress), 10))).toBe(true)
    expect((await api(`/archives/${tankId}/progress/1`, 'PUT')).status).toBe(200)
    const files = await api(`/archives/${tankId}/files`)
    expect(files.body.pages).toHaveLength(7)
    // The fourth page is the second book's first: the members read straight through.
    const pages = files.body.pages as string[]
    expect(decodeURIComponent(pages[2]!)).toContain(ids.Alpha!)
    expect(decodeURIComponent(pages[3]!)).toContain(ids.Beta!)
    for (const raw of pages) {
      const res = await fetch(normalizePageUrl(raw, app.url), { headers: clientHeaders() })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/jpeg')
    }
    await app.json('/api/settings', {
      method: 'PUT',
      cookie,
      json: { tankoubons_as_archives: false },
    })
    await app.json(`/api/tankoubons/${tankId}`, { method: 'DELETE', cookie })
  })
})

describe('Readoshi: edits, upload, download, delete (MetadataPage, UploadPage, Home.jsx)', () => {
  it('updates metadata from query parameters', async () => {
    const id = ids.Alpha!
    const tags = 'date_added:1600000000, artist:alpha, female:glasses'
    const params = new URLSearchParams({ title: 'Alpha (edited)', tags, summary: 'A summary.' })
    const { status } = await api(`/archives/${encodeURIComponent(id)}/metadata?${params}`, 'PUT')
    expect(status).toBe(200)
    const { body: meta } = await api(`/archives/${id}/metadata`)
    expect(meta.title).toBe('Alpha (edited)')
    expect(meta.tags).toContain('female:glasses')
    expect(meta.summary).toBe('A summary.')
  })

  it('lists metadata plugins with their namespace and name', async () => {
    const { status, body } = await api('/plugins/metadata')
    expect(status).toBe(200)
    expect(Array.isArray(body)).toBe(true)
    for (const plugin of body as unknown as Wire[]) {
      expect(typeof plugin.namespace).toBe('string')
      expect(typeof plugin.name).toBe('string')
    }
  })

  it('uploads a file as multipart `file` alone, then downloads and deletes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'readoshi-upload-'))
    try {
      const path = await makeCbz(join(dir, 'Delta.cbz'), { pages: 2 })
      const form = new FormData()
      form.append('file', new File([await Bun.file(path).arrayBuffer()], 'Delta.cbz'))
      const res = await app.req('/api/archives/upload', {
        method: 'PUT',
        headers: clientHeaders(),
        body: form,
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      const uploaded = (await res.json()) as Wire
      expect(uploaded.success).toBe(1)
      const id = uploaded.id as string
      expect(id).toMatch(/^[0-9a-f]{40}$/)

      const download = await app.req(`/api/archives/${id}/download`, { headers: clientHeaders() })
      expect(download.status).toBe(200)
      // Read cross-origin only when exposed; the client takes the file name from it.
      expect(download.headers.get('access-control-expose-headers')).toContain('Content-Disposition')
      const disposition = download.headers.get('content-disposition') ?? ''
      const match = disposition.match(/filename\*=UTF-8''([^;]+)|filename="?([^"]+)"?/i)
      expect(decodeURIComponent((match?.[1] ?? match?.[2] ?? '').trim())).toBe('Delta.cbz')
      await download.arrayBuffer()

      const deleted = await api(`/archives/${encodeURIComponent(id)}`, 'DELETE')
      expect(deleted.status).toBe(200)
      expect(deleted.body.success).toBe(1)
      expect([400, 404]).toContain((await api(`/archives/${id}/metadata`)).status)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('LANraragi-React-Reader: the calls Readoshi does not make (its src/lib/api.js)', () => {
  it('creates a category from a form body and files an archive in it, then out', async () => {
    const res = await app.req('/api/categories', {
      method: 'PUT',
      headers: clientHeaders({
        'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
      }),
      body: new URLSearchParams({ name: 'To read' }).toString(),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    const made = (await res.json()) as Wire
    expect(made.success).toBe(1)
    const categoryId = made.category_id as string
    expect(categoryId).toMatch(/^SET_\d{10}$/)
    const path = `/categories/${encodeURIComponent(categoryId)}/${encodeURIComponent(ids.Gamma!)}`
    expect((await api(path, 'PUT')).status).toBe(200)
    const listed = (await api('/categories')).body as unknown as Wire[]
    expect(listed.find((c) => c.id === categoryId)?.archives).toEqual([ids.Gamma])

    // search?category=<id> (URLSearchParams order: filter, start, sortby, order, category)
    const params = new URLSearchParams({
      filter: '',
      start: '0',
      sortby: 'date_added',
      order: 'desc',
      category: categoryId,
    })
    const found = await api(`/search?${params}`)
    expect(found.status).toBe(200)
    expect(found.body.data.map((a: Wire) => a.arcid)).toEqual([ids.Gamma])
    expect(found.body.recordsFiltered).toBe(1)

    expect((await api(path, 'DELETE')).status).toBe(200)
    const after = (await api('/categories')).body as unknown as Wire[]
    expect(after.find((c) => c.id === categoryId)?.archives).toEqual([])
  })

  it('searches untagged archives only with untaggedonly=true', async () => {
    const params = new URLSearchParams({
      filter: '',
      start: '0',
      sortby: 'date_added',
      order: 'desc',
      untaggedonly: 'true',
    })
    const { status, body } = await api(`/search?${params}`)
    expect(status).toBe(200)
    const untagged = (await api('/archives/untagged')).body as unknown as string[]
    expect(body.data.map((a: Wire) => a.arcid).sort()).toEqual([...untagged].sort())
    expect(body.recordsFiltered).toBe(untagged.length)
  })

  it('lists every archive on GET /api/archives with the card fields', async () => {
    const { status, body } = await api('/archives')
    expect(status).toBe(200)
    const list = body as unknown as Wire[]
    expect(list.map((a) => a.arcid).sort()).toEqual(Object.values(ids).sort())
    for (const archive of list) expectArchiveCard(archive)
  })

  it('polls a job on /api/minion/{job} until state is "finished"', async () => {
    const queued = await api('/regen_thumbs?force=1', 'POST')
    expect(queued.status).toBe(200)
    const job = Number(queued.body.job)
    expect(Number.isFinite(job) && job > 0).toBe(true)
    let state = ''
    for (let attempt = 0; attempt < 100 && state !== 'finished'; attempt++) {
      const { status, body } = await api(`/minion/${encodeURIComponent(job)}`)
      expect(status).toBe(200)
      state = String(body.state || '').toLowerCase()
      expect(['inactive', 'active', 'finished']).toContain(state)
      if (state !== 'finished') await Bun.sleep(50)
    }
    expect(state).toBe('finished')
  })

  it('clears progress with PUT progress/0?force=1', async () => {
    const id = ids.Alpha!
    expect((await api(`/archives/${id}/progress/2`, 'PUT')).status).toBe(200)
    const cleared = await api(`/archives/${id}/progress/0?force=1`, 'PUT')
    expect(cleared.status).toBe(200)
    const { body: meta } = await api(`/archives/${id}/metadata`)
    expect(meta.progress).toBe(0)
    expect(meta.lastreadtime).toBe(0)
  })
})
