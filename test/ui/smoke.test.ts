// The UI loads under its CSP, logs in and out, and a wrong password is shown as the server said it.
import { describe, expect } from 'bun:test'
import { type TestServer } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

describe('web UI shell', () => {
  let app: TestServer
  useUiServer({}, async (started) => {
    app = started
  })

  uiTest('logs in, shows the server name, logs out', async (shot) => {
    const ui = await openUi(app, '#/login')
    shot.page = ui.page
    await ui.page.getByLabel('Password').fill('wrong')
    await ui.page.getByRole('button', { name: 'Log in' }).click()
    await expect(ui.page.getByRole('alert').textContent()).resolves.toMatch(/password/i)
    await logInThroughUi(app, ui)
    expect(await ui.page.locator('.brand').textContent()).toBeTruthy()
    await ui.page.getByRole('button', { name: 'Log out' }).click()
    await ui.page.getByRole('link', { name: 'Log in' }).waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('serves hashed assets for a year and gzipped', async () => {
    const html = await (await app.req('/')).text()
    const script = html.match(/src="(\/ui\/[^"]+\.js)"/)?.[1]
    expect(script).toBeDefined()
    const res = await app.req(script!, { headers: { 'accept-encoding': 'gzip' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toContain('immutable')
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const again = await app.req(script!, { headers: { 'if-none-match': res.headers.get('etag')! } })
    expect(again.status).toBe(304)
    const missing = await app.json('/ui/nope.js')
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ success: 0 })
  })
})
