// GET /api/archives streams the whole list batch by batch: every linked archive once, across
// batch boundaries, hidden ones left out, valid JSON whatever the size.
import { describe, expect, it } from 'bun:test'
import { commit } from '../../src/domain/commit.ts'
import { hideArchive } from '../../src/domain/archives/save.ts'
import { startTestServer } from '../helpers/server.ts'
import { seedArchive } from '../helpers/seed.ts'

describe('GET /api/archives', () => {
  it('lists 2,500 archives across batches, each once, without hidden ones', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const ids = Array.from(
      { length: 2500 },
      (_, i) => seedArchive(app.deps, { title: `A ${i}` }).id,
    )
    const hidden = ids[1234]!
    commit(app.deps, (w) => hideArchive(w, hidden))
    const res = await app.req('/api/archives', { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const list = (await res.json()) as { arcid: string; title: string; toc: unknown }[]
    expect(list.length).toBe(2499)
    expect(new Set(list.map((a) => a.arcid)).size).toBe(2499)
    expect(list.map((a) => a.arcid)).not.toContain(hidden)
    expect(list.find((a) => a.arcid === ids[0])).toMatchObject({ title: 'A 0', toc: [] })
  })

  it('answers an empty array for an empty library', async () => {
    await using app = await startTestServer()
    await app.idle()
    const res = await app.req('/api/archives', { cookie: await app.login() })
    expect(await res.text()).toBe('[]')
  })
})
