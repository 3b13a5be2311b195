// The run log of installed plugins: what `console` printed reaches the `use` answer, the
// plugin_exec job's result (finished or failed) and Run Automatically's entries, bounded to the
// last lines and with saved secrets and login session values blanked out.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'

import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { sideload, pluginInfoSource } from '../helpers/plugins.ts'

const info = pluginInfoSource

const PLUGINS: Record<string, string> = {
  'script/chatty.ts':
    info({
      name: 'Chatty',
      type: 'script',
      parameters: [
        { name: 'password', type: 'string', desc: 'site password' },
        { name: 'lang', type: 'string', desc: 'language' },
      ],
    }) +
    `export function runScript(ctx) {
      for (let i = 1; i <= 150; i++) console.log('line ' + i)
      console.info('lang is ' + ctx.args.lang)
      console.warn('logging in with ' + ctx.args.password)
      if (ctx.oneshot === 'fail') throw new Error('site refused')
      if (ctx.oneshot === 'error') return { error: 'no such gallery' }
      return { data: 'done' }
    }`,
  'login/token.ts':
    info({ name: 'Token login', type: 'login' }) +
    `export function execLogin() {
      return { cookies: [{ name: 'sid', value: 'cookie-value-123' }], headers: { 'X-Auth': 'header-value-456' } }
    }`,
  'metadata/tagger.ts':
    info({ name: 'Tagger', type: 'metadata', login_from: 'custom/login/token' }) +
    `export function execMetadata(ctx) {
      console.log('tagging ' + ctx.archive.title)
      console.log('session cookie-value-123 and header-value-456')
      if (ctx.archive.title.includes('bad')) throw new Error('cannot tag this one')
      return { tags: 'tagged:yes' }
    }`,
}

let app: TestServer
let cookie: string

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: (contentDir) => sideload(contentDir, PLUGINS),
  })
  cookie = await app.login()
  await app.json('/api/plugins/settings?namespace=custom/script/chatty', {
    method: 'PUT',
    cookie,
    json: { customargs: ['hunter2-secret', 'english'] },
  })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

type Line = { level: string; message: string }
const text = (log: Line[]) => log.map((l) => l.message).join('\n')

function expectChattyLog(log: Line[]) {
  // The last 100 lines, after a line saying how many went; the password is blanked.
  expect(log).toHaveLength(101)
  expect(log[0]).toEqual({ level: 'log', message: '(52 earlier lines not kept)' })
  expect(log[1]).toEqual({ level: 'log', message: 'line 53' })
  expect(log.at(-2)).toEqual({ level: 'info', message: 'lang is english' })
  expect(log.at(-1)).toEqual({ level: 'warn', message: 'logging in with ***' })
  expect(text(log)).not.toContain('hunter2')
}

describe('the run log', () => {
  it('is in the use answer, on success and on failure', async () => {
    const ok = await app.json('/api/plugins/use?plugin=custom/script/chatty', {
      method: 'POST',
      cookie,
    })
    expect(ok.body).toMatchObject({ success: 1, data: 'done' })
    expectChattyLog(ok.body.log)

    const thrown = await app.json('/api/plugins/use?plugin=custom/script/chatty&arg=fail', {
      method: 'POST',
      cookie,
    })
    expect(thrown.body).toMatchObject({ success: 0 })
    expect(thrown.body.error).toContain('site refused')
    expectChattyLog(thrown.body.log)

    const answered = await app.json('/api/plugins/use?plugin=custom/script/chatty&arg=error', {
      method: 'POST',
      cookie,
    })
    expect(answered.body).toMatchObject({ success: 0, error: 'no such gallery' })
    expectChattyLog(answered.body.log)
  })

  it('is in the result of a queued job, finished or failed', async () => {
    const queued = await app.json('/api/plugins/queue?plugin=custom/script/chatty', {
      method: 'POST',
      cookie,
    })
    await app.deps.jobs.waitFor(queued.body.job)
    const done = await app.json(`/api/jobqueue/${queued.body.job}`, { cookie })
    expect(done.body).toMatchObject({ state: 'finished', result: { success: 1, data: 'done' } })
    expectChattyLog(done.body.result.log)

    const failing = await app.json('/api/plugins/queue?plugin=custom/script/chatty&arg=fail', {
      method: 'POST',
      cookie,
    })
    await app.deps.jobs.waitFor(failing.body.job)
    const failed = await app.json(`/api/jobqueue/${failing.body.job}`, { cookie })
    expect(failed.body.state).toBe('failed')
    expect(failed.body.error).toContain('site refused')
    expect(failed.body.result).toMatchObject({ plugin: 'custom/script/chatty', success: 0 })
    expectChattyLog(failed.body.result.log)
  })

  it("is in each archive's entry of Run Automatically, login session values blanked", async () => {
    await app.json('/api/plugins/settings?namespace=custom/metadata/tagger', {
      method: 'PUT',
      cookie,
      json: { enabled: true },
    })
    const before = app.deps.jobs.list().filter((job) => job.name === 'plugin_exec').length
    await makeCbz(join(app.contentDir, 'good one.cbz'))
    await makeCbz(join(app.contentDir, 'bad one.cbz'))
    expect((await rescan(app, cookie)).added).toBe(2)
    const jobs = app.deps.jobs
      .list()
      .filter((job) => job.name === 'plugin_exec')
      .sort((a, b) => a.id - b.id)
      .slice(before)
    expect(jobs).toHaveLength(1)
    const job = await app.deps.jobs.waitFor(jobs[0]!.id)
    const result = JSON.parse(job.result!)
    expect(result.applied).toHaveLength(1)
    expect(result.applied[0].log).toEqual([
      { level: 'log', message: 'tagging good one' },
      { level: 'log', message: 'session *** and ***' },
    ])
    expect(result.failed).toHaveLength(1)
    expect(result.failed[0].error).toContain('cannot tag this one')
    expect(result.failed[0].log).toEqual([
      { level: 'log', message: 'tagging bad one' },
      { level: 'log', message: 'session *** and ***' },
    ])
  })
})
