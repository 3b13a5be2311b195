// TANKOBUN_FETCH_ALLOW_PRIVATE with a port (issue 25, §4): allowing `127.0.0.1:<port>` for a local
// site opens that port only, so a plugin listing 127.0.0.1 still cannot reach the server's own
// API on another port. Through the real server and sandbox, with a fake site on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../helpers/server.ts'

/** Fetches its one-shot URL and answers the status, or the refusal's message. */
const PROBE = `export function pluginInfo() {
    return { name: 'Probe', version: '1', type: 'script', hosts: ['127.0.0.1'] }
  }
  export async function runScript(ctx) {
    try { return { data: { status: (await fetch(ctx.oneshot)).status } } }
    catch (e) { return { data: { refused: e.message } } }
  }`

let site: ReturnType<typeof Bun.serve>
let app: TestServer
let cookie: string

beforeAll(async () => {
  site = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('site') })
  app = await startTestServer({
    config: { fetchAllowPrivate: [`127.0.0.1:${site.port}`] },
    beforeStart(contentDir) {
      const folder = join(contentDir, '..', 'data', 'plugins', 'custom', 'script')
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, 'probe.ts'), PROBE)
    },
  })
  cookie = await app.login()
})

afterAll(async () => {
  await app?.[Symbol.asyncDispose]()
  site?.stop(true)
})

const probe = async (url: string) =>
  (
    await app.json(`/api/plugins/use?plugin=custom/script/probe&arg=${encodeURIComponent(url)}`, {
      method: 'POST',
      cookie,
    })
  ).body.data

describe('an allow-list entry with a port', () => {
  it('lets plugins reach the local site on that port', async () => {
    expect(await probe(`http://127.0.0.1:${site.port}/`)).toEqual({ status: 200 })
  })

  it("keeps the server's own API, on another port of the same host, refused", async () => {
    const own = new URL(app.url).port
    expect(own).not.toBe(String(site.port))
    const answer = await probe(`http://127.0.0.1:${own}/api/info`)
    expect(answer.refused).toContain('127.0.0.1 is a loopback address')
  })
})
