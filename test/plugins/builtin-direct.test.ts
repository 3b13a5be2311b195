// The direct-link download built-in (plugins/download/direct.ts): which URLs its url_regex takes,
// the download it answers (the URL itself, named after its path) without fetching anything,
// through the sandbox alone and through the server's run-now endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { createSandboxHost } from '../../src/plugins/host.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const root = join(import.meta.dir, '../..')
const source = () => Bun.file(join(root, 'plugins/download/direct.ts')).text()

describe('download/direct in the sandbox', () => {
  // Any fetch fails the test: the plugin answers from the URL alone.
  const host = createSandboxHost({ fetch: () => Promise.reject(new Error('no fetch expected')) })
  afterAll(() => host.close())

  const run = async (url: string) =>
    (
      await host.run({
        source: await source(),
        entry: 'execDownload',
        ctx: { args: {}, oneshot: null, url },
      })
    ).result as { downloads?: { url: string; filename_hint?: string }[]; error?: string }

  it('has a url_regex taking http(s) links to archive files only', async () => {
    const info = (
      await host.run({
        source: await source(),
        entry: 'pluginInfo',
        ctx: { args: {}, oneshot: null },
      })
    ).result as PluginInfoShape
    expect(info.type).toBe('download')
    expect(info.hosts).toBeUndefined()
    const regex = new RegExp(info.url_regex!, 'i')
    for (const url of [
      'https://example.com/files/Book%201.cbz',
      'http://cdn.example.org/a/b.zip?token=1',
      'https://example.com/x.tar.gz',
      'https://example.com/x.CBR',
    ])
      expect(regex.test(url)).toBe(true)
    for (const url of [
      'ftp://example.com/a.zip',
      'https://example.com/gallery/123',
      'https://example.com/a.zip.html',
      'https://example.com/?file=a.zip',
    ])
      expect(regex.test(url)).toBe(false)
  })

  it('answers the URL as the download, named after the last part of its path', async () => {
    expect(await run('https://example.com/files/Book%201%20%5BEN%5D.cbz?token=abc')).toEqual({
      downloads: [
        {
          url: 'https://example.com/files/Book%201%20%5BEN%5D.cbz?token=abc',
          filename_hint: 'Book 1 [EN].cbz',
        },
      ],
    })
    // An escaped slash or a malformed escape never makes a path out of the name.
    expect((await run('https://example.com/a%2F..%2Fb.zip')).downloads![0]!.filename_hint).toBe(
      'a_.._b.zip',
    )
    expect((await run('https://example.com/bad%E0.zip')).downloads![0]!.filename_hint).toBe(
      'bad%E0.zip',
    )
  })

  it('answers an error for a link that is not an archive file', async () => {
    expect((await run('https://example.com/gallery/123')).error).toContain(
      'Not a direct link to an archive file',
    )
  })
})

type PluginInfoShape = { type: string; url_regex?: string; hosts?: string[] }

describe('download/direct through the server', () => {
  let app: TestServer
  let cookie: string

  beforeAll(async () => {
    app = await startTestServer()
    cookie = await app.login()
  })

  afterAll(() => app?.[Symbol.asyncDispose]())

  it('is listed with its url_regex and runs now on a URL', async () => {
    const { body: list } = await app.json('/api/plugins/download', { cookie })
    const direct = (list as ({ namespace: string } & PluginInfoShape)[]).find(
      (p) => p.namespace === 'download/direct',
    )
    expect(direct?.url_regex).toContain('cbz')

    const url = 'https://example.com/dl/My%20Book.zip'
    const { status, body } = await app.json(
      `/api/plugins/use?plugin=download/direct&arg=${encodeURIComponent(url)}`,
      { method: 'POST', cookie },
    )
    expect(status).toBe(200)
    expect(body.data).toEqual({ downloads: [{ url, filename_hint: 'My Book.zip' }] })
  })
})
