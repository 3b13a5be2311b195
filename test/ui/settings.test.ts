// The settings view in a real browser: an API token made in the UI works against the server
// until it is revoked in the UI; a changed server name shows in the header after a reload.
import { describe, expect } from 'bun:test'
import { TEST_PASSWORD, startTestServer, type TestServer } from '../helpers/server.ts'
import { logInThroughUi, openUi, uiTest, useUiServer } from './browser.ts'

describe('settings view', () => {
  let app: TestServer
  useUiServer({}, async (started) => {
    app = started
  })

  uiTest('creates a token shown once, which works until revoked', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/settings')
    await ui.page.getByLabel('Token name').fill('e2e script')
    await ui.page.getByLabel('Role').selectOption('admin')
    await ui.page.getByRole('button', { name: 'Create token' }).click()
    const secretField = ui.page.getByRole('textbox', { name: 'Token secret' })
    await secretField.waitFor()
    const secret = await secretField.inputValue()
    expect(secret).toMatch(/^tkb_[0-9a-f]{64}$/)
    const table = ui.page.getByRole('table', { name: 'API tokens' })
    await table.getByRole('cell', { name: 'e2e script', exact: true }).waitFor()

    // The secret is real: an admin route accepts it.
    const allowed = await app.json('/api/settings', { token: secret })
    expect(allowed.status).toBe(200)

    // Shown once: after Done, and after a reload, it is gone from the page.
    await ui.page.getByRole('button', { name: 'Done' }).click()
    await secretField.waitFor({ state: 'detached' })
    await ui.page.reload()
    await table.getByRole('cell', { name: 'e2e script', exact: true }).waitFor()
    expect(await ui.page.content()).not.toContain(secret)

    // Renamed in place, then revoked: revoking asks once more, and the token stops working.
    await ui.page.getByRole('button', { name: 'Rename e2e script' }).click()
    await ui.page.getByLabel('New name for e2e script').fill('e2e renamed')
    await ui.page.getByRole('button', { name: 'Save', exact: true }).click()
    await table.getByRole('cell', { name: 'e2e renamed', exact: true }).waitFor()
    await ui.page.getByRole('button', { name: 'Revoke e2e renamed' }).click()
    await ui.page.getByRole('button', { name: 'Revoke e2e renamed now' }).click()
    await ui.page.getByText('No tokens yet.').waitFor()
    const refused = await app.json('/api/settings', { token: secret })
    expect(refused.status).toBe(401)
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('the token form says what each role can do', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/settings')
    const role = ui.page.getByLabel('Role')
    // The default is guest, and the form says a guest saves no reading progress.
    expect(await role.inputValue()).toBe('guest')
    const help = ui.page.locator('#token-role-help')
    await help.getByText(/no reading progress/).waitFor()
    expect(await role.getAttribute('aria-describedby')).toBe('token-role-help')
    await role.selectOption('admin')
    await help.getByText(/reading progress and bookmarks included/).waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('a changed server name shows in the header after a reload', async (shot) => {
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/settings')
    const name = ui.page.getByLabel('Server name')
    await name.fill('Moonbase Comics')
    await ui.page.getByLabel('Archives per page').fill('0')
    await ui.page.getByRole('button', { name: 'Save settings' }).click()
    // The server refuses a page size of 0 and nothing is written.
    await expect(ui.page.getByRole('alert').textContent()).resolves.toMatch(/archives_per_page/)
    expect((await app.json('/api/info')).body.name).not.toBe('Moonbase Comics')
    await ui.page.getByLabel('Archives per page').fill('50')
    await ui.page.getByRole('button', { name: 'Save settings' }).click()
    await ui.page.locator('.brand', { hasText: 'Moonbase Comics' }).waitFor()
    await ui.page.reload()
    await ui.page.locator('.brand', { hasText: 'Moonbase Comics' }).waitFor()
    expect(await name.inputValue()).toBe('Moonbase Comics')
    const cookie = await app.login()
    const settings = await app.json('/api/settings', { cookie })
    expect(settings.body).toMatchObject({ name: 'Moonbase Comics', archives_per_page: 50 })
    // The current session is marked.
    await ui.page.getByRole('list', { name: 'Sessions' }).getByText('This session').waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })

  uiTest('signs out another browser session', async (shot) => {
    const res = await app.req('/api/login', {
      method: 'POST',
      json: { password: TEST_PASSWORD },
      headers: { 'user-agent': 'e2e-other-device' },
    })
    const other = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect((await app.json('/api/sessions', { cookie: other })).status).toBe(200)
    const ui = await openUi(app)
    shot.page = ui.page
    await logInThroughUi(app, ui)
    await ui.page.goto(app.url + '/#/settings')
    const sessions = ui.page.getByRole('list', { name: 'Sessions' })
    const row = sessions.getByRole('listitem').filter({ hasText: 'e2e-other-device' })
    await row.getByRole('button', { name: 'Sign out' }).click()
    await row.waitFor({ state: 'detached' })
    expect((await app.json('/api/sessions', { cookie: other })).status).toBe(401)
    // This browser is still signed in.
    await sessions.getByText('This session').waitFor()
    expect(ui.errors).toEqual([])
    await ui.context.close()
  })
})
