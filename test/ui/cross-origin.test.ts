// Another app on the same host (another port: the same site, so the admin's SameSite=Lax cookie
// goes along) tries the writes a logged-in admin's browser could be made to send: a token
// creation, a plugin upload and a database drop. In a real Chromium all three are refused, while
// the UI's own writes (login, a script write, logout) keep working. HTTP cases:
// test/http/auth-same-origin.test.ts.
import { describe, expect } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { type TestServer, type Wire } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

const PLUGIN =
  `export function pluginInfo() { return ${JSON.stringify({
    name: 'Planted',
    type: 'script',
    author: 'attacker',
    description: 'installed from another page',
    version: '1.0',
  })} }\n` + `export function runScript() { return { data: 'planted' } }\n`

/**
 * The other app's page: one simple request (no preflight) with the browser's cookies, as a form
 * or a no-cors fetch sends it. Its title says when it was sent.
 */
function attackPage(target: string, step: string): string {
  return `<!doctype html><title>another app</title><script>
  const send = (path, body) => fetch(${JSON.stringify(target)} + path, {
    method: 'POST', mode: 'no-cors', credentials: 'include', body,
  })
  const form = new FormData()
  form.append('file', new File([${JSON.stringify(PLUGIN)}], 'planted.ts'))
  const steps = {
    token: () => send('/api/tokens', new URLSearchParams({ name: 'planted', role: 'admin' })),
    plugin: () => send('/api/plugins/upload', form),
    drop: () => send('/api/database/drop'),
  }
  steps[${JSON.stringify(step)}]().then(() => { document.title = 'sent' }, (e) => {
    document.title = 'failed ' + e
  })
  </script>`
}

describe('writes from another app on the same host', () => {
  let app: TestServer
  useUiServer(
    {
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Kept.cbz'), { pages: 2 })
      },
    },
    async (started) => {
      app = started
      await app.idle()
    },
  )

  uiTest('are refused in the browser; the UI’s own writes still work', async (shot) => {
    const ui = await openUi(app, '#/login')
    shot.page = ui.page
    await logInThroughUi(app, ui)
    const own = new URL(app.url)
    await using other = Bun.serve({
      hostname: own.hostname,
      port: 0,
      fetch: (request) => {
        const step = new URL(request.url).searchParams.get('step') ?? ''
        const html = attackPage(app.url, step)
        return new Response(html, { headers: { 'content-type': 'text/html' } })
      },
    })
    expect(other.port).not.toBe(Number(own.port))

    const attacker = await ui.context.newPage()
    const attack = async (step: string) => {
      await attacker.goto(`http://${own.hostname}:${other.port}/?step=${step}`)
      await attacker.waitForFunction(() => document.title !== 'another app')
      expect(await attacker.title()).toBe('sent')
    }
    const cookie = await app.login()

    await attack('token')
    const tokens = await app.json<Wire[]>('/api/tokens', { cookie })
    expect(tokens.body.map((t) => t.name)).toEqual([])

    await attack('plugin')
    const planted = join(app.root, 'data', 'plugins', 'custom', 'script', 'planted.ts')
    expect(existsSync(planted)).toBe(false)

    await attack('drop')
    expect(Object.keys(await app.idsByTitle(cookie))).toEqual(['Kept'])

    // The UI's own page still writes: a script call, then logging out through the UI.
    const status = await ui.page.evaluate(async () => {
      const res = await fetch('/api/database/isnew', { method: 'DELETE' })
      return res.status
    })
    expect(status).toBe(200)
    await ui.page.getByRole('button', { name: 'Log out' }).click()
    await ui.page.getByRole('link', { name: 'Log in' }).waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
