// The worked example of docs/architecture.md (Areas, adding an area): the toy area in
// test/fixtures/toy-area compiles, and added to a server's areas it registers everything it
// declares: its route answers under its policy row, its job kind runs, its state is in deps and
// its subscriber hears the writers' events. The doc quotes the fixture files word for word.
import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer } from '../helpers/server.ts'
import { SERVER_AREAS } from '../../src/areas/assemble.ts'
import type { JobQueue } from '../../src/jobs/queue.ts'
import { toyArea } from '../fixtures/toy-area/area.ts'
import type { ToyAddArgs } from '../fixtures/toy-area/add-job.ts'
import { toyOf } from '../fixtures/toy-area/tally.ts'

const ROOT = join(import.meta.dir, '..', '..')

describe('the worked example of an area', () => {
  it('docs/architecture.md quotes each fixture file whole', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
    const quoted = [
      ...doc.matchAll(/<!-- (test\/fixtures\/toy-area\/[a-z-]+\.ts) -->\n```ts\n([\s\S]*?)```/g),
    ]
    expect(quoted.map((m) => m[1])).toEqual([
      'test/fixtures/toy-area/tally.ts',
      'test/fixtures/toy-area/add-job.ts',
      'test/fixtures/toy-area/routes.ts',
      'test/fixtures/toy-area/area.ts',
    ])
    for (const [, file, code] of quoted) expect(code).toBe(readFileSync(join(ROOT, file!), 'utf8'))
  })

  it('added to the areas, the toy area registers its state, route, policy row, job and subscriber', async () => {
    await using app = await startTestServer({ areas: [...SERVER_AREAS, toyArea] })
    const cookie = await app.login()

    // State: one record per server, under the area's name.
    expect(toyOf(app.deps).tally).toEqual({ changes: 0, added: 0 })

    // Route and policy row: admin only, as its row says; the Env names the row's operation.
    const anonymous = await app.json('/api/toy')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toMatchObject({ operation: 'toy_tally', success: 0 })
    expect(app.deps.policy.policyOf('GET', '/api/toy')).toEqual({
      op: 'toy_tally',
      access: 'admin',
    })

    // Subscriber: a category write's event reaches it.
    const created = await app.json('/api/categories?name=Toys', { method: 'PUT', cookie })
    expect(created.status).toBe(200)

    // Job kind: queued by name, run by the server's queue with the server's deps.
    const jobs = app.deps.jobs as unknown as JobQueue<{ toy_add: ToyAddArgs }>
    const done = await app.deps.jobs.waitFor(jobs.enqueue('toy_add', { amount: 3 }))
    expect(done.state).toBe('finished')

    const tally = await app.json('/api/toy', { cookie })
    expect(tally.status).toBe(200)
    expect(tally.body).toEqual({ operation: 'toy_tally', success: 1, changes: 1, added: 3 })
  })

  it('a server without it has none of it', async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    expect('toy' in app.deps).toBe(false)
    expect(app.deps.policy.policyOf('GET', '/api/toy')).toBeUndefined()
    expect((await app.json('/api/toy', { cookie })).status).toBe(404)
  })
})
