// Queue URLs as readers see them: a URL's user:pass@ is the admin's, hidden from guest tokens
// and visitors (list and stream); and a URL with a NUL or another control character is refused
// wherever one is taken (add, edit, download_url).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { TestServer, Wire } from '../helpers/server.ts'
import { PLUGIN, addItem, startDownloadServer } from './fake-site.ts'

let app: TestServer
let cookie: string
let guest: string
const SECRET_URL = 'http://reader:s3cret@127.0.0.1:9/gallery/1'

beforeAll(async () => {
  app = await startDownloadServer()
  cookie = await app.login()
  const { body } = await app.json('/api/tokens', {
    method: 'POST',
    cookie,
    json: { name: 'reader', role: 'guest' },
  })
  guest = body.data.token
  await addItem(app, cookie, SECRET_URL)
})

afterAll(() => app[Symbol.asyncDispose]())

/** The `full` event of a queue stream, as text. */
async function fullEvent(auth: { token?: string; cookie?: string }): Promise<string> {
  const abort = new AbortController()
  const res = await app.req('/api/download_queue/stream', { ...auth, signal: abort.signal })
  expect(res.status).toBe(200)
  const chunks = res.body!.getReader()
  let text = ''
  while (!/event: full\ndata: .*\n\n/.test(text))
    text += new TextDecoder().decode((await chunks.read()).value)
  abort.abort()
  return text
}

describe('download queue URLs with credentials', () => {
  it('shows user:pass@ to admins only, in the list and the stream', async () => {
    const asGuest = await app.req('/api/download_queue', { token: guest })
    const guestText = await asGuest.text()
    expect(guestText).not.toContain('s3cret')
    expect((JSON.parse(guestText) as Wire).items[0].url).toBe('http://***@127.0.0.1:9/gallery/1')
    const visitor = await app.req('/api/download_queue')
    expect(await visitor.text()).not.toContain('s3cret')
    const asAdmin = await app.json('/api/download_queue', { cookie })
    expect(asAdmin.body.items[0].url).toBe(SECRET_URL)

    expect(await fullEvent({ token: guest })).not.toContain('s3cret')
    expect(await fullEvent({ cookie })).toContain(SECRET_URL)
  })
})

describe('download queue URLs with control characters', () => {
  it('refuses a NUL in a URL when adding, editing or downloading one', async () => {
    const bad = 'http://127.0.0.1:9/gallery/a\u0000b'
    const added = await app.json('/api/download_queue', {
      method: 'POST',
      cookie,
      json: {
        items: [
          { url: bad, plugin_namespace: PLUGIN },
          { url: 'http://127.0.0.1:9/\x07', plugin_namespace: PLUGIN },
        ],
      },
    })
    expect(added.status).toBe(200)
    expect(added.body.added).toEqual([])
    expect(added.body.rejected).toEqual([
      { url: bad, reason: 'invalid_url' },
      { url: 'http://127.0.0.1:9/\x07', reason: 'invalid_url' },
    ])

    const item = await addItem(app, cookie, 'http://127.0.0.1:9/gallery/2')
    const edited = await app.json(`/api/download_queue/${item.id}`, {
      method: 'PATCH',
      cookie,
      json: { url: bad },
    })
    expect(edited.status).toBe(400)
    expect(edited.body).toMatchObject({ success: 0, error: 'Invalid url: invalid_url' })

    const once = await app.json(`/api/download_url?url=${encodeURIComponent(bad)}`, {
      method: 'POST',
      cookie,
    })
    expect(once.status).toBe(400)
    expect(once.body).toMatchObject({ success: 0, error: 'url must be an http(s) URL.' })
  })
})
