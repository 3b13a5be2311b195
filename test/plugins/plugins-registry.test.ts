// Plugin registration through the real sandbox: built-ins beside sideloaded plugins, a re-read
// after files change, and settings that survive a plugin which breaks for a while.
import { describe, expect, it } from 'bun:test'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const plugin = (name: string, body = '') =>
  `export function pluginInfo() { ${body} return { name: '${name}', type: 'script', version: '1', parameters: [{ name: 'n', type: 'string' }] } }
   export function runScript() { return { data: 1 } }`

const customDir = (contentDir: string) =>
  join(contentDir, '..', 'data', 'plugins', 'custom', 'script')

/** The sideloaded plugins of a type (its built-ins are listed too). */
async function sideloaded(app: TestServer, cookie: string, type: string): Promise<any[]> {
  return (await listed(app, cookie, type)).filter((p) => p.origin === 'sideloaded')
}

async function listed(app: TestServer, cookie: string, type: string): Promise<any[]> {
  const { status, body } = await app.json(`/api/plugins/${type}`, { cookie })
  expect(status).toBe(200)
  return body as any[]
}

describe('plugin registration', () => {
  it("lists the repo's built-in plugins with origin builtin", async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    const builtin = (await listed(app, cookie, 'all')).filter((p) => p.origin === 'builtin')
    expect(builtin.map((p) => p.namespace)).toContain('metadata/comicinfo')
    for (const p of builtin) expect(p.namespace).toMatch(/^(download|login|metadata|script)\//)
  })

  it('drops the row of a deleted file and keeps the settings of one that breaks', async () => {
    await using app = await startTestServer({
      beforeStart(contentDir) {
        mkdirSync(customDir(contentDir), { recursive: true })
        writeFileSync(join(customDir(contentDir), 'keep.ts'), plugin('Keep'))
        writeFileSync(join(customDir(contentDir), 'gone.ts'), plugin('Gone'))
      },
    })
    const cookie = await app.login()
    expect((await sideloaded(app, cookie, 'script')).map((p) => p.namespace)).toEqual([
      'custom/script/gone',
      'custom/script/keep',
    ])
    const settings = '/api/plugins/settings?namespace=custom/script/keep'
    await app.json(settings, { method: 'PUT', cookie, json: { customargs: ['x'], enabled: true } })

    const dir = customDir(app.contentDir)
    rmSync(join(dir, 'gone.ts'))
    const run = await app.json('/api/plugins/use?plugin=custom/script/gone', {
      method: 'POST',
      cookie,
    })
    expect(run.status).toBe(200)
    expect(run.body).toMatchObject({ operation: 'use_plugin', success: 0 })
    writeFileSync(join(dir, 'keep.ts'), plugin('Keep', "throw new Error('broken for now')"))
    await app.deps.plugins.registry.refresh()
    expect((await sideloaded(app, cookie, 'script')).map((p) => p.namespace)).toEqual([
      'custom/script/keep',
    ])

    writeFileSync(join(dir, 'keep.ts'), plugin('Keep again'))
    await app.deps.plugins.registry.refresh()
    const [keep] = await sideloaded(app, cookie, 'script')
    expect(keep).toMatchObject({ name: 'Keep again', origin: 'sideloaded' })
    expect((await app.json(settings, { cookie })).body).toMatchObject({
      customargs: ['x'],
      enabled: true,
    })
  })
})
