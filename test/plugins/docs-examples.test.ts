// The plugins documentation is code people copy: every TypeScript example in docs/plugins.md that
// exports a hook must type-check against plugins/sdk.d.ts, the way a plugin author's editor checks
// it, and the worked plugins (a first line naming their file) must upload and run as written, the
// login and download pair together, against a fake site standing in for example.com.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const root = join(import.meta.dir, '../..')

describe('docs/plugins.md examples', () => {
  it('type-check against the SDK, one example per plugin type at least', () => {
    const doc = readFileSync(join(root, 'docs/plugins.md'), 'utf8')
    const examples = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((match) => match[1]!)
      .filter((code) => code.includes('export '))
    for (const hook of ['execMetadata', 'execLogin', 'execDownload', 'runScript'])
      expect(
        examples.some(
          (code) =>
            code.includes(`export async function ${hook}`) ||
            code.includes(`export function ${hook}`),
        ),
      ).toBe(true)

    const dir = mkdtempSync(join(tmpdir(), 'tankobun-doc-examples-'))
    try {
      copyFileSync(join(root, 'plugins/sdk.d.ts'), join(dir, 'sdk.d.ts'))
      copyFileSync(join(root, 'plugins/tsconfig.json'), join(dir, 'tsconfig.json'))
      examples.forEach((code, i) => {
        const withSdk = code.includes('reference path')
          ? code
          : `/// <reference path="sdk.d.ts" />\n${code}`
        writeFileSync(join(dir, `example-${i}.ts`), withSdk)
      })
      const tsc = Bun.spawnSync([join(root, 'node_modules/.bin/tsc'), '--noEmit', '-p', dir], {
        stdout: 'pipe',
        stderr: 'pipe',
      })
      expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe('')
      expect(tsc.exitCode).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

/** The worked plugins: file name -> source, from their `// <file>.ts: uploaded, ...` line. */
function workedPlugins(): Map<string, string> {
  const doc = readFileSync(join(root, 'docs/plugins.md'), 'utf8')
  const out = new Map<string, string>()
  for (const [, code] of doc.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const named = /^\/\/ ([a-z0-9-]+\.ts): uploaded/m.exec(code!)
    if (named) out.set(named[1]!, code!)
  }
  return out
}

describe('docs/plugins.md worked plugins, uploaded', () => {
  let app: TestServer
  let cookie: string
  let site: ReturnType<typeof Bun.serve>
  const cookiesSeen: (string | null)[] = []

  beforeAll(async () => {
    // example.com: a gallery page naming its archive, for members only.
    site = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(req) {
        cookiesSeen.push(req.headers.get('cookie'))
        if (new URL(req.url).pathname !== '/gallery/1') return new Response('no', { status: 404 })
        return new Response(
          '<html><h1>Gallery One</h1><a class="download" href="/files/1.zip">zip</a></html>',
          { headers: { 'content-type': 'text/html' } },
        )
      },
    })
    app = await startTestServer({
      config: { fetchAllowPrivate: ['127.0.0.1'] },
      async beforeStart(contentDir) {
        const info = JSON.stringify({ artist: 'someone', tags: ['tag one', 'a, b'] })
        await makeCbz(join(contentDir, 'Some Book.cbz'), {
          entries: [{ name: 'info.json', data: new TextEncoder().encode(info) }],
        })
      },
    })
    cookie = await app.login()
    await app.idle()
  })

  afterAll(async () => {
    await app[Symbol.asyncDispose]()
    site.stop(true)
  })

  /** The example as written, its example.com pointed at the fake site. */
  const onFakeSite = (source: string) =>
    source
      .replaceAll('https://example\\.com', `http://127\\.0\\.0\\.1:${site.port}`)
      .replaceAll("'*.example.com'", "'127.0.0.1'")
      .replaceAll("'example.com'", "'127.0.0.1'")

  function upload(filename: string, source: string) {
    const form = new FormData()
    form.append('file', new File([source], filename))
    return app.json('/api/plugins/upload', { method: 'POST', body: form, cookie })
  }
  const use = (query: string) => app.json(`/api/plugins/use?${query}`, { method: 'POST', cookie })
  const settings = (namespace: string, customargs: unknown[]) =>
    app.json(`/api/plugins/settings?namespace=${namespace}`, {
      method: 'PUT',
      cookie,
      json: { customargs },
    })

  it('names four worked plugins, one per type', () => {
    expect([...workedPlugins().keys()].sort()).toEqual([
      'example-download.ts',
      'examplelogin.ts',
      'info-json.ts',
      'untranslated.ts',
    ])
  })

  it('the login and download pair: the download fetches with the login session', async () => {
    const plugins = workedPlugins()
    const login = await upload('examplelogin.ts', onFakeSite(plugins.get('examplelogin.ts')!))
    expect(login.body).toMatchObject({ success: 1, namespace: 'custom/login/examplelogin' })
    await settings('custom/login/examplelogin', ['m1', 'h1'])
    const download = await upload(
      'example-download.ts',
      onFakeSite(plugins.get('example-download.ts')!),
    )
    expect(download.body).toMatchObject({
      success: 1,
      namespace: 'custom/download/example-download',
    })
    const url = `http://127.0.0.1:${site.port}/gallery/1`
    const run = await use(`plugin=custom/download/example-download&arg=${encodeURIComponent(url)}`)
    expect(run.body).toMatchObject({
      success: 1,
      data: {
        downloads: [
          { url: `http://127.0.0.1:${site.port}/files/1.zip`, filename_hint: 'Gallery One.zip' },
        ],
      },
    })
    expect(cookiesSeen.at(-1)).toBe('member_id=m1; pass_hash=h1')
  })

  it('refuses an upload declaring another namespace than the one it gets', async () => {
    const source = workedPlugins()
      .get('examplelogin.ts')!
      .replace("name: 'Example login',", "name: 'Example login',\n    namespace: 'examplelogin',")
    const { status, body } = await upload('otherlogin.ts', source)
    expect(status).toBe(400)
    expect(body.error).toContain('declares namespace "examplelogin"')
    expect(body.error).toContain('custom/login/otherlogin')
    const same = source.replace("namespace: 'examplelogin'", "namespace: 'custom/login/otherlogin'")
    expect((await upload('otherlogin.ts', same)).body).toMatchObject({
      success: 1,
      namespace: 'custom/login/otherlogin',
    })
  })

  it('the metadata plugin reads info.json', async () => {
    expect((await upload('info-json.ts', workedPlugins().get('info-json.ts')!)).status).toBe(200)
    await settings('custom/metadata/info-json', [false])
    const id = Object.values(await app.idsByTitle(cookie))[0]!
    const run = await use(`plugin=custom/metadata/info-json&id=${id}`)
    expect(run.body).toMatchObject({
      success: 1,
      data: { new_tags: 'tag one, a b, artist:someone' },
    })
  })

  it('the script plugin fills a category', async () => {
    expect((await upload('untranslated.ts', workedPlugins().get('untranslated.ts')!)).status).toBe(
      200,
    )
    const run = await use('plugin=custom/script/untranslated&arg=No%20language')
    expect(run.body).toMatchObject({ success: 1, data: { added: 1, matching: 1 } })
  })
})
