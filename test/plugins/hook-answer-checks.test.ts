// A plugin's hook and answer are checked against the SDK: an upload (and `npm run plugin --
// check`) without the hook of its type is refused naming the near miss, and a run whose answer is
// not what plugins/sdk.d.ts declares fails with the reason, instead of succeeding with nothing.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { pluginInfoSource } from '../helpers/plugins.ts'

const ROOT = join(import.meta.dir, '..', '..')

const info = pluginInfoSource

const answering = (name: string, answer: string) =>
  info({ name, type: 'metadata' }) + `export function execMetadata() { return ${answer} }\n`

/** Wrong answers of a metadata plugin, and a word of the reason each one fails with. */
const WRONG: Record<string, { answer: string; reason: string }> = {
  string: { answer: "'x'", reason: 'execMetadata answered the string "x"' },
  object_tags: {
    answer: "{ tags: { artist: 'x' } }",
    reason: 'execMetadata answered tags as an object, but tags must be a string',
  },
  number_title: {
    answer: '{ title: 42 }',
    reason: 'execMetadata answered title as a number, but title must be a string',
  },
  nothing: { answer: 'undefined', reason: 'execMetadata answered nothing' },
}

let app: TestServer
let cookie: string
let id: string

beforeAll(async () => {
  app = await startTestServer({
    async beforeStart(contentDir) {
      await makeCbz(join(contentDir, 'Some Book.cbz'))
      const folder = join(contentDir, '..', 'data', 'plugins', 'custom', 'metadata')
      mkdirSync(folder, { recursive: true })
      for (const [stem, { answer }] of Object.entries(WRONG))
        writeFileSync(join(folder, `${stem.replace('_', '-')}.ts`), answering(stem, answer))
      writeFileSync(
        join(folder, 'listed.ts'),
        answering('listed', "{ tags: ['a', 'b'], title: null }"),
      )
    },
  })
  cookie = await app.login()
  await app.idle()
  id = Object.values(await app.idsByTitle(cookie))[0]!
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

function upload(filename: string, source: string) {
  const form = new FormData()
  form.append('file', new File([source], filename))
  return app.json('/api/plugins/upload', { method: 'POST', body: form, cookie })
}

describe('the exported hook', () => {
  it('an upload without the hook of its type is a 400 naming the near miss', async () => {
    const typo =
      info({ name: 'Typo', type: 'metadata' }) +
      `export function execMetdata() { return { tags: 'a' } }\n`
    const { status, body } = await upload('typo.ts', typo)
    expect(status).toBe(400)
    expect(body.error).toBe(
      'Not a valid plugin: A metadata plugin must export execMetadata(ctx), and this file does ' +
        'not (it exports execMetdata: a typo?).',
    )
    const list = (await app.json<any[]>('/api/plugins/metadata', { cookie })).body
    expect(list.map((p) => p.namespace)).not.toContain('custom/metadata/typo')
  })

  it('npm run plugin -- check refuses it too, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tankobun-hook-'))
    try {
      const file = join(dir, 'typo.ts')
      writeFileSync(
        file,
        info({ name: 'Typo', type: 'login' }) + 'export function execLgin() { return {} }\n',
      )
      const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli/plugin.ts'), 'check', file], {
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const stderr = await new Response(proc.stderr).text()
      expect(await proc.exited).toBe(1)
      expect(stderr).toContain('A login plugin must export execLogin(ctx)')
      expect(stderr).toContain('execLgin: a typo?')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the answer', () => {
  for (const [stem, { reason }] of Object.entries(WRONG)) {
    const namespace = `custom/metadata/${stem.replace('_', '-')}`
    it(`${stem}: the run now fails with the reason`, async () => {
      const { body } = await app.json(`/api/plugins/use?plugin=${namespace}&id=${id}`, {
        method: 'POST',
        cookie,
      })
      expect(body).toMatchObject({ success: 0, type: 'metadata' })
      expect(body.error).toContain(reason)
      expect(body.error).toContain('MetadataResult')
    })
  }

  it('a queued run of a wrong answer fails its job, and changes nothing', async () => {
    const before = (await app.json(`/api/archives/${id}/metadata`, { cookie })).body
    const queued = await app.json(
      `/api/plugins/queue?plugin=custom/metadata/object-tags&id=${id}`,
      {
        method: 'POST',
        cookie,
      },
    )
    const job = await app.deps.jobs.waitFor(queued.body.job)
    expect(job.state).toBe('failed')
    expect(job.error).toContain(WRONG.object_tags!.reason)
    const after = (await app.json(`/api/archives/${id}/metadata`, { cookie })).body
    expect(after.tags).toBe(before.tags)
  })

  it('a list of tags and a null title are accepted', async () => {
    const { body } = await app.json(`/api/plugins/use?plugin=custom/metadata/listed&id=${id}`, {
      method: 'POST',
      cookie,
    })
    expect(body).toMatchObject({ success: 1, data: { new_tags: 'a, b' } })
  })
})
