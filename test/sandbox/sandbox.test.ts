// The plugin sandbox through the real Node child process: results, logs, bridged fetch and
// archive entries, and hostile plugins that must fail alone without harming the next run.
import { afterAll, describe, expect, it } from 'bun:test'

import {
  createSandboxHost,
  PluginRunError,
  type PluginFetchInit,
  type PluginRunRequest,
} from '../../src/plugins/host.ts'
import { sandboxPids } from '../helpers/plugins.ts'

const fetched: { url: string; init: PluginFetchInit }[] = []
const host = createSandboxHost({
  // The network module has its own tests: a canned answer is enough to prove the bridge.
  async fetch(url, init) {
    fetched.push({ url, init })
    if (url.includes('fail')) throw new Error('host refused the fetch')
    return {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-echo': init.method ?? 'GET' },
      url,
      body: new TextEncoder().encode(JSON.stringify({ seen: url, body: decode(init.body) })),
    }
  },
  async entry(name) {
    return name === 'ComicInfo.xml' ? new TextEncoder().encode('<Title>ü</Title>') : null
  },
})
afterAll(() => host.close())

const decode = (bytes?: Uint8Array) => (bytes ? new TextDecoder().decode(bytes) : null)
const ctx = { args: { lang: 'en' }, oneshot: null }
const run = (source: string, extra: Partial<PluginRunRequest> = {}) =>
  host.run({ source, entry: 'runScript', ctx, ...extra })
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the run should have failed')
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(PluginRunError)
      return (err as Error).message
    },
  )
const trivial = 'export function runScript() { return { data: 42 } }'

describe('plugin sandbox', () => {
  it('returns the entry result of a TypeScript plugin', async () => {
    const source = `
      type Info = { name: string; type: 'metadata' }
      export function pluginInfo(): Info { return { name: 'Test', type: 'metadata' } }`
    const out = await host.run({ source, entry: 'pluginInfo', ctx })
    expect(out.result).toEqual({ name: 'Test', type: 'metadata' })
  })

  it('passes ctx and reads archive entries through the host', async () => {
    const source = `export async function execMetadata(ctx) {
      const xml = new TextDecoder().decode(await ctx.entry('ComicInfo.xml'))
      return { tags: 'lang:' + ctx.args.lang, title: xml, missing: await ctx.entry('nope.txt') }
    }`
    const out = await host.run({ source, entry: 'execMetadata', ctx })
    expect(out.result).toEqual({ tags: 'lang:en', title: '<Title>ü</Title>', missing: null })
  })

  it('sends console output to the run log', async () => {
    const out = await run(`export function runScript() {
      console.log('hello', { a: 1 }); console.warn('careful'); console.error(new Error('bad').message)
      return null
    }`)
    expect(out.logs).toEqual([
      { level: 'log', message: 'hello {"a":1}' },
      { level: 'warn', message: 'careful' },
      { level: 'error', message: 'bad' },
    ])
  })

  it('bridges fetch to the injected function and back', async () => {
    const out = await run(`export async function runScript() {
      const url = new URL('/api?q=1', 'https://example.com/base/')
      url.searchParams.set('tag', 'a b')
      const r = await fetch(url, { method: 'post', body: 'payload', headers: { 'X-A': '1' } })
      const failed = await fetch('https://fail.example/').then(() => 'no', (e) => e.message)
      return { ok: r.ok, status: r.status, echo: r.headers.get('X-Echo'), json: await r.json(), failed }
    }`)
    expect(out.result).toEqual({
      ok: true,
      status: 200,
      echo: 'POST',
      json: { seen: 'https://example.com/api?q=1&tag=a+b', body: 'payload' },
      failed: 'host refused the fetch',
    })
    expect(fetched.find((f) => f.url.includes('example.com/api'))?.init.headers).toEqual([
      ['X-A', '1'],
    ])
    expect(out.fetches).toEqual([
      { method: 'POST', url: 'https://example.com/api?q=1&tag=a+b', status: 200 },
      { method: 'GET', url: 'https://fail.example/', error: 'host refused the fetch' },
    ])
  })

  it('offers URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa and sleep', async () => {
    const out = await run(`export async function runScript() {
      const u = new URL('HTTPS://User:pw@Example.COM:443/a/../b/%7Ex?x=1#h')
      const p = new URLSearchParams({ a: '1', b: 'é &' }); p.append('a', '2')
      const bytes = new TextEncoder().encode('日本 😀')
      const t0 = Date.now(); await sleep(30)
      return {
        href: u.href, host: u.host, path: u.pathname, origin: u.origin, hash: u.hash,
        params: p.toString(), all: p.getAll('a'), bad: URL.canParse('not a url'),
        bytes: bytes.length, round: new TextDecoder().decode(bytes),
        b64: btoa('hi!'), raw: atob('aGkh'), slept: Date.now() - t0 >= 25,
      }
    }`)
    expect(out.result).toEqual({
      href: 'https://User:pw@example.com/b/%7Ex?x=1#h',
      host: 'example.com',
      path: '/b/%7Ex',
      origin: 'https://example.com',
      hash: '#h',
      params: 'a=1&b=%C3%A9+%26&a=2',
      all: ['1', '2'],
      bad: false,
      bytes: 11,
      round: '日本 😀',
      b64: 'aGkh',
      raw: 'hi!',
      slept: true,
    })
  })

  it('fails with the message a plugin throws, and when the entry is missing', async () => {
    expect(await failure(run(`export function runScript() { throw new Error('nope') }`))).toContain(
      'nope',
    )
    expect(await failure(host.run({ source: trivial, entry: 'execLogin', ctx }))).toContain(
      'does not export execLogin',
    )
  })

  it('has no process, require, timers or host escape', async () => {
    const out = await run(`export async function runScript() {
      const tryIt = (f) => { try { return String(f()) } catch (e) { return 'blocked: ' + e.constructor.name } }
      return {
        process: typeof process, require: typeof globalThis.require,
        requireCall: tryIt(() => require('node:fs')), setTimeout: typeof setTimeout,
        bun: typeof Bun, host: typeof __host, gc: typeof gc,
        escape: tryIt(() => globalThis.constructor.constructor('return process')()),
        fnEscape: tryIt(() => (function () {}).constructor('return process.env')()),
        dynamicImport: await import('node:fs').then(() => 'imported', (e) => 'blocked'),
      }
    }`)
    expect(out.result).toEqual({
      process: 'undefined',
      require: 'undefined',
      requireCall: 'blocked: ReferenceError',
      setTimeout: 'undefined',
      bun: 'undefined',
      host: 'undefined',
      gc: 'undefined',
      escape: 'blocked: ReferenceError',
      fnEscape: 'blocked: ReferenceError',
      dynamicImport: 'blocked',
    })
    expect(
      await failure(run(`import fs from 'node:fs'\nexport const runScript = () => fs`)),
    ).toContain('cannot import')
  })

  it('stops an endless synchronous loop at the timeout, then runs the next plugin', async () => {
    const limits = { syncTimeoutMs: 200 }
    const loop = run('export function runScript() { for (;;) {} }', { limits })
    expect(await failure(loop)).toContain('without yielding')
    expect((await run(trivial)).result).toEqual({ data: 42 })
  })

  it('disposes a plugin that loops after an await or never settles (wall clock)', async () => {
    const limits = { syncTimeoutMs: 5_000, wallMs: 400 }
    const [afterAwait, never] = await Promise.all([
      failure(run('export async function runScript() { await 1; for (;;) {} }', { limits })),
      failure(run('export function runScript() { return new Promise(() => {}) }', { limits })),
    ])
    // The 400 ms wall budget ended both, not the 5 s synchronous one ('without yielding').
    expect(afterAwait).toContain('timed out after 400 ms')
    expect(never).toContain('timed out after 400 ms')
    expect((await run(trivial)).result).toEqual({ data: 42 })
  })

  it('ends an allocation bomb at the memory limit, then runs the next plugin', async () => {
    const limits = { memoryMb: 16, syncTimeoutMs: 10_000 }
    const bomb = run(
      'export function runScript() { const a = []; for (;;) a.push({ s: "x".repeat(64) + a.length }) }',
      { limits },
    )
    expect(await failure(bomb)).toContain('memory limit')
    expect((await run(trivial)).result).toEqual({ data: 42 })
  })

  it('fails the run when the sandbox process dies, and restarts it for the next', async () => {
    await run(trivial)
    const [pid] = sandboxPids()
    expect(pid).toBeNumber()
    // The plugin says it is running (a bridged fetch) before the child is killed under it.
    const pending = run(
      'export async function runScript() { await fetch("https://started.example/"); await sleep(5000) }',
    )
    while (!fetched.some((f) => f.url === 'https://started.example/')) await Bun.sleep(5)
    process.kill(pid!, 'SIGKILL')
    expect(await failure(pending)).toContain('plugin sandbox exited')
    expect((await run(trivial)).result).toEqual({ data: 42 })
    expect(sandboxPids()).not.toContain(pid)
  })

  it('fails clearly when Node 24 is missing', async () => {
    const missing = createSandboxHost({
      fetch: () => Promise.reject(new Error('unused')),
      nodePath: '/nonexistent/node',
    })
    await expect(missing.run({ source: trivial, entry: 'runScript', ctx })).rejects.toThrow(
      'plugin sandbox unavailable',
    )
  })
})
