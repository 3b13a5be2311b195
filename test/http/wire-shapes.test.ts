// Exact wire keys (and their order) of answers whose domain types are camelCase and converted once
// in src/http/models: GET /api/info, GET /api/health, GET /api/database/import-snapshots.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { INFO_KEYS } from '../helpers/wire-keys.ts'

let app: TestServer
let cookie: string

beforeAll(async () => {
  app = await startTestServer()
  cookie = await app.login()
  await app.idle()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('wire shapes', () => {
  it('GET /api/info answers LANraragi keys in order', async () => {
    const { status, body } = await app.json('/api/info', { cookie })
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(INFO_KEYS)
    expect(body.restart_required).toBe(false)
  })

  it('GET /api/health answers its checks in order', async () => {
    const { body } = await app.json('/api/health')
    expect(Object.keys(body)).toEqual(['status', 'db', 'search_ready', 'sandbox'])
  })

  it('GET /api/database/import-snapshots lists each snapshot with its keys in order', async () => {
    const drop = await app.json('/api/database/drop', { method: 'POST', cookie })
    expect(drop.status).toBe(200)
    cookie = await app.login()
    const { status, body } = await app.json('/api/database/import-snapshots', { cookie })
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['operation', 'success', 'snapshots'])
    const [snapshot] = body.snapshots as Wire[]
    expect(Object.keys(snapshot!)).toEqual([
      'id',
      'created_at',
      'reason',
      'job',
      'archives',
      'categories',
      'tankoubons',
      'size',
    ])
    expect(snapshot).toMatchObject({ id: drop.body.snapshot, reason: 'drop', job: null })
    expect(typeof snapshot!.created_at).toBe('number')
  })
})
