// Plugins as background jobs through the real server and sandbox: POST /api/plugins/queue applies a
// metadata result, Run Automatically on newly catalogued archives, and login plugins' sessions on
// the fetches of the plugins that name them.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { buildZip, makeCbz, makeJpeg } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { seedArchive } from '../helpers/seed.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { sideload, pluginInfoSource } from '../helpers/plugins.ts'

const info = pluginInfoSource

const PLUGINS: Record<string, string> = {
  'metadata/merger.ts':
    info({ name: 'Merger', type: 'metadata' }) +
    `export function execMetadata(ctx) {
      return { tags: 'EXISTING, artist:merged, artist:merged, plain', summary: ctx.oneshot ?? undefined }
    }`,
  'metadata/broken.ts':
    info({ name: 'Broken', type: 'metadata' }) +
    `export function execMetadata() { throw new Error('site is down') }`,
  'metadata/auto.ts':
    info({ name: 'Auto', type: 'metadata' }) +
    `export function execMetadata(ctx) { return { tags: 'auto:tagged', title: 'Auto ' + ctx.archive.title } }`,
  'metadata/picky.ts':
    info({ name: 'Picky', type: 'metadata' }) +
    `export function execMetadata(ctx) {
      if (ctx.archive.title.includes('bad')) throw new Error('cannot read ' + ctx.archive.title)
      return { tags: 'picky:' + (ctx.archive.tags.includes('auto:tagged') ? 'after-auto' : 'alone') }
    }`,
  // Run Automatically's batch path: each archive reads its own ComicInfo.xml; one loops forever
  // after an await, one allocates without end; a global left by one archive must not reach another.
  'metadata/hostile.ts':
    info({ name: 'Hostile', type: 'metadata' }) +
    `export async function execMetadata(ctx) {
      const seen = globalThis.previousArchive
      globalThis.previousArchive = ctx.archive.arcid
      const xml = new TextDecoder().decode(await ctx.entry('ComicInfo.xml'))
      const own = xml.split('<Title>')[1].split('</Title>')[0]
      await sleep(5)
      if (own === 'loop') for (;;) {}
      if (own === 'bomb') {
        const hoard = []
        for (;;) hoard.push(new Array(100000).fill(own))
      }
      return { tags: 'own:' + own + ', arcid:' + ctx.archive.arcid + (seen ? ', leaked:' + seen : '') }
    }`,
  'login/session.ts':
    info({ name: 'Session', type: 'login', hosts: ['127.0.0.1'] }) +
    `export async function execLogin(ctx) {
      const res = await fetch(ctx.oneshot ?? 'http://127.0.0.1:${'${PORT}'}/login')
      const { sid } = await res.json()
      return {
        cookies: [{ name: 'sid', value: sid, domain: '127.0.0.1' }, { name: 'elsewhere', value: 'no', domain: 'example.com' }],
        headers: { 'X-Token': 'abc' },
      }
    }`,
  'metadata/member.ts':
    info({
      name: 'Member',
      type: 'metadata',
      hosts: ['127.0.0.1'],
      login_from: 'custom/login/session',
    }) +
    `export async function execMetadata(ctx) {
      const res = await fetch(ctx.oneshot)
      if (!res.ok) return { error: 'members only: ' + res.status }
      return { tags: (await res.json()).tags.join(', ') }
    }`,
}

let app: TestServer
let cookie: string
let site: ReturnType<typeof Bun.serve>
let logins = 0
const seen: { cookie: string | null; token: string | null }[] = []

beforeAll(async () => {
  // A site that hands out a session at /login and answers /gallery only with it.
  site = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      if (url.pathname === '/login') {
        logins++
        return Response.json({ sid: 's3cret' })
      }
      const sent = { cookie: req.headers.get('cookie'), token: req.headers.get('x-token') }
      seen.push(sent)
      if (sent.cookie !== 'sid=s3cret' || sent.token !== 'abc')
        return new Response('no', { status: 403 })
      return Response.json({ tags: ['members:yes'] })
    },
  })
  app = await startTestServer({
    config: { fetchAllowPrivate: ['127.0.0.1'] },
    beforeStart: (contentDir) =>
      sideload(
        contentDir,
        Object.fromEntries(
          Object.entries(PLUGINS).map(([path, source]) => [
            path,
            source.replace('${PORT}', String(site.port)),
          ]),
        ),
      ),
  })
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
  site.stop(true)
})

async function queue(query: string) {
  return app.json(`/api/plugins/queue?${query}`, { method: 'POST', cookie })
}

async function search(filter: string): Promise<string[]> {
  const { body } = await app.json(`/api/search?filter=${encodeURIComponent(filter)}`, { cookie })
  return (body.data as { arcid: string }[]).map((hit) => hit.arcid)
}

const pluginJobs = () =>
  app.deps.jobs
    .list()
    .filter((job) => job.name === 'plugin_exec')
    .sort((a, b) => a.id - b.id)

describe('POST /api/plugins/queue', () => {
  it('queues a metadata run that merges tags without duplicates, visible to search', async () => {
    const row = seedArchive(app.deps, { tags: 'existing, artist:old', summary: 'old summary' })
    const { status, body } = await queue(
      `plugin=custom/metadata/merger&id=${row.id}&arg=${encodeURIComponent('new summary')}`,
    )
    expect(status).toBe(200)
    expect(body).toMatchObject({ operation: 'queue_plugin_exec', success: 1 })
    expect(typeof body.job).toBe('number')
    const job = await app.deps.jobs.waitFor(body.job)
    expect(job.state).toBe('finished')
    expect(JSON.parse(job.result!)).toMatchObject({
      plugin: 'custom/metadata/merger',
      id: row.id,
      applied: { tags_added: ['artist:merged', 'plain'], summary: 'new summary' },
    })
    const stored = findArchive(app.deps.db, row.id)!
    expect(stored.tags).toBe('existing, artist:old, artist:merged, plain')
    expect(stored.summary).toBe('new summary')
    expect(stored.title).toBe(row.title)
    expect(await search('artist:merged')).toEqual([row.id])

    // Run again: nothing new to add, nothing written twice.
    const again = await queue(`plugin=custom/metadata/merger&id=${row.id}`)
    const second = await app.deps.jobs.waitFor(again.body.job)
    expect(JSON.parse(second.result!).applied).toEqual({ tags_added: [] })
    expect(findArchive(app.deps.db, row.id)!.tags).toBe(stored.tags)
  })

  it('fails the job with the plugin message when the plugin throws', async () => {
    const row = seedArchive(app.deps, { tags: 'kept' })
    const { body } = await queue(`plugin=custom/metadata/broken&id=${row.id}`)
    const job = await app.deps.jobs.waitFor(body.job)
    expect(job.state).toBe('failed')
    expect(job.error).toContain('site is down')
    expect(findArchive(app.deps.db, row.id)!.tags).toBe('kept')
  })

  it('checks the request before queuing: plugin, archive, priority, admin only', async () => {
    const row = seedArchive(app.deps)
    const unknown = await queue(`plugin=custom/metadata/nope&id=${row.id}`)
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ operation: 'queue_plugin_exec', success: 0 })
    expect((await queue('plugin=custom/metadata/merger')).status).toBe(400)
    expect((await queue(`plugin=custom/metadata/merger&id=${row.id}&priority=high`)).status).toBe(
      400,
    )
    const guest = createApiToken(app.deps, { name: 'g', role: 'guest' }).secret
    const refused = await app.json(
      `/api/plugins/queue?plugin=custom/metadata/merger&id=${row.id}`,
      {
        method: 'POST',
        token: guest,
      },
    )
    expect(refused.status).toBe(403)
  })

  it('stores the priority on the job (higher runs first)', async () => {
    const row = seedArchive(app.deps)
    const { body } = await queue(`plugin=custom/metadata/merger&id=${row.id}&priority=7`)
    expect(app.deps.jobs.get(body.job)!.priority).toBe(7)
    await app.deps.jobs.waitFor(body.job)
  })
})

describe('Run Automatically', () => {
  it('runs enabled metadata plugins on a new archive, and nothing when none is enabled', async () => {
    const before = pluginJobs().length
    await makeCbz(join(app.contentDir, 'plain one.cbz'))
    const first = await rescan(app, cookie)
    expect(first.added).toBe(1)
    expect(pluginJobs().length).toBe(before)

    const enable = await app.json('/api/plugins/settings?namespace=custom/metadata/auto', {
      method: 'PUT',
      cookie,
      json: { enabled: true },
    })
    expect(enable.status).toBe(200)
    try {
      await makeCbz(join(app.contentDir, 'fresh one.cbz'))
      expect((await rescan(app, cookie)).added).toBe(1)
      const jobs = pluginJobs().slice(before)
      expect(jobs.length).toBe(1)
      const job = await app.deps.jobs.waitFor(jobs[0]!.id)
      expect(job.state).toBe('finished')
      const result = JSON.parse(job.result!)
      expect(result.ids).toHaveLength(1)
      const [id] = result.ids
      expect(result.applied).toEqual([
        {
          plugin: 'custom/metadata/auto',
          id,
          tags_added: ['auto:tagged'],
          title: 'Auto fresh one',
        },
      ])
      expect(result.failed).toEqual([])
      expect(findArchive(app.deps.db, id)!.title).toBe('Auto fresh one')
      expect(await search('auto:tagged')).toEqual([id])

      // An edit of an existing archive is not a new archive.
      const edit = await app.json(`/api/archives/${id}/metadata`, {
        method: 'PUT',
        cookie,
        json: { title: 'Edited' },
      })
      expect(edit.status).toBe(200)
      expect(pluginJobs().length).toBe(before + 1)
    } finally {
      await app.json('/api/plugins/settings?namespace=custom/metadata/auto', {
        method: 'PUT',
        cookie,
        json: { enabled: false },
      })
    }
  })
})

describe('Run Automatically over a batch', () => {
  const enable = (namespace: string, enabled: boolean) =>
    app.json(`/api/plugins/settings?namespace=${namespace}`, {
      method: 'PUT',
      cookie,
      json: { enabled },
    })

  it('runs every enabled plugin over the archives of one scan as one job; a failure stops none', async () => {
    await enable('custom/metadata/auto', true)
    await enable('custom/metadata/picky', true)
    // auto before picky: picky sees what auto wrote.
    await app.json('/api/plugins/priority', {
      method: 'PUT',
      cookie,
      json: { type: 'metadata', namespaces: ['custom/metadata/auto', 'custom/metadata/picky'] },
    })
    try {
      const before = pluginJobs().length
      const titles = ['batch a', 'batch b', 'batch bad', 'batch c', 'batch d']
      for (const title of titles) await makeCbz(join(app.contentDir, `${title}.cbz`))
      expect((await rescan(app, cookie)).added).toBe(5)
      const jobs = pluginJobs().slice(before)
      expect(jobs).toHaveLength(1)
      const job = await app.deps.jobs.waitFor(jobs[0]!.id)
      expect(job.state).toBe('finished')
      expect(job.progress).toBe(1)
      const result = JSON.parse(job.result!)
      expect(result.ids).toHaveLength(5)
      const byPlugin = (plugin: string) => result.applied.filter((a: any) => a.plugin === plugin)
      expect(byPlugin('custom/metadata/auto')).toHaveLength(5)
      expect(byPlugin('custom/metadata/picky')).toHaveLength(4)
      expect(result.failed).toEqual([
        {
          plugin: 'custom/metadata/picky',
          id: expect.any(String),
          error: expect.stringContaining('cannot read Auto batch bad'),
        },
      ])
      expect((await search('auto:tagged')).length).toBeGreaterThanOrEqual(5)
      expect(await search('picky:after-auto')).toHaveLength(4)
      expect(await search('picky:alone')).toEqual([])
    } finally {
      await enable('custom/metadata/auto', false)
      await enable('custom/metadata/picky', false)
    }
  })
})

describe('Run Automatically over a batch with hostile archives', () => {
  it('fails only the archive that hangs or exhausts memory, and applies each answer to its own archive', async () => {
    const options = '/api/plugins/options?namespace=custom/metadata/hostile'
    const put = async (path: string, json: unknown) =>
      expect((await app.json(path, { method: 'PUT', cookie, json })).status).toBe(200)
    await put(options, { timeout_ms: 1500 })
    await put('/api/settings', { plugin_memory_mb: 32 })
    await put('/api/plugins/settings?namespace=custom/metadata/hostile', { enabled: true })
    try {
      const page = await makeJpeg(16, 24, 3)
      const names = ['h0', 'h1', 'loop', 'h2', 'h3', 'bomb', 'h4', 'h5', 'h6', 'h7', 'h8', 'h9']
      for (const name of names) {
        const xml = `<?xml version="1.0"?><ComicInfo><Title>${name}</Title></ComicInfo>`
        const zip = buildZip([
          { name: 'ComicInfo.xml', data: new TextEncoder().encode(xml) },
          { name: '001.jpg', data: page },
        ])
        writeFileSync(join(app.contentDir, `hostile ${name}.cbz`), zip)
      }
      const before = pluginJobs().length
      expect((await rescan(app, cookie)).added).toBe(names.length)
      const jobs = pluginJobs().slice(before)
      expect(jobs).toHaveLength(1)
      const job = await app.deps.jobs.waitFor(jobs[0]!.id)
      expect(job.state).toBe('finished')
      const result = JSON.parse(job.result!)
      const byTitle = new Map<string, string>()
      for (const id of result.ids as string[]) {
        const row = findArchive(app.deps.db, id)!
        byTitle.set(row.title, id)
      }
      const failures = new Map<string, string>(
        result.failed.map((f: { id: string; error: string }) => [f.id, f.error]),
      )
      expect(failures.size).toBe(2)
      expect(failures.get(byTitle.get('hostile loop')!)).toBe('plugin timed out after 1.5 s')
      expect(failures.get(byTitle.get('hostile bomb')!)).toBe(
        'plugin exceeded its memory limit (32 MB)',
      )
      // Every other archive got its own ComicInfo's answer, and saw no other archive's global.
      for (const name of names.filter((n) => n !== 'loop' && n !== 'bomb')) {
        const id = byTitle.get(`hostile ${name}`)!
        const tags = findArchive(app.deps.db, id)!.tags
        expect(tags).toContain(`own:${name}`)
        expect(tags).toContain(`arcid:${id}`)
        expect(tags).not.toContain('leaked:')
      }
      expect(await search('own:loop')).toEqual([])
      expect(await search('own:bomb')).toEqual([])
      expect(await search('leaked')).toEqual([])
    } finally {
      await app.json('/api/plugins/settings?namespace=custom/metadata/hostile', {
        method: 'PUT',
        cookie,
        json: { enabled: false },
      })
      await app.json('/api/settings', { method: 'PUT', cookie, json: { plugin_memory_mb: 64 } })
    }
  })
})

describe('login_from', () => {
  it('attaches the login plugin cookies and headers to the fetches, logging in once', async () => {
    const row = seedArchive(app.deps)
    const gallery = encodeURIComponent(`http://127.0.0.1:${site.port}/gallery`)
    for (let i = 0; i < 2; i++) {
      const { body } = await queue(`plugin=custom/metadata/member&id=${row.id}&arg=${gallery}`)
      const job = await app.deps.jobs.waitFor(body.job)
      expect(job.error ?? null).toBeNull()
      expect(job.state).toBe('finished')
    }
    expect(findArchive(app.deps.db, row.id)!.tags).toContain('members:yes')
    // Only the cookie of the site's domain, and the login plugin ran once for both runs.
    expect(seen.at(-1)).toEqual({ cookie: 'sid=s3cret', token: 'abc' })
    expect(logins).toBe(1)
    // The run now uses the same session (on an archive still without the tag it proposes).
    const fresh = seedArchive(app.deps)
    const now = await app.json(
      `/api/plugins/use?plugin=custom/metadata/member&id=${fresh.id}&arg=${gallery}`,
      {
        method: 'POST',
        cookie,
      },
    )
    expect(now.body).toMatchObject({ success: 1, data: { new_tags: 'members:yes' } })
    expect(logins).toBe(1)
  })
})
