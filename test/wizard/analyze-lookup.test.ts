// POST /api/plugin-wizard/analyze-login and /lookup: a page of a fake site on 127.0.0.1 read on the
// server, and the fake provider's JSON answer checked, on good, malformed and slow answers, and
// without a key.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { startFakeProvider, type FakeProvider } from './fake-provider.ts'
import { LOGIN_PAGE, startFakeSite, type FakeSite } from './fake-site.ts'

const FLOW = {
  summary: 'Post user and pass with the csrf token; the sid cookie is the session.',
  steps: [{ method: 'POST', url: 'http://127.0.0.1/session', fields: { user: '{user}' } }],
  parameters: [{ name: 'user', type: 'string', desc: 'user name' }],
  session_cookies: ['sid'],
  hosts: ['127.0.0.1'],
}
const SUGGESTION = {
  site: 'Fake site',
  plugin_type: 'download',
  selectors: [{ field: 'download', selector: 'a.download[href]', example: '/files/1.zip' }],
  hosts: ['127.0.0.1'],
  url_regex: '^http://127\\.0\\.0\\.1:\\d+/gallery/\\d+',
  notes: 'The title is in h1#gtitle.',
}

let provider: FakeProvider
let site: FakeSite
let app: TestServer
let cookie: string

beforeAll(async () => {
  provider = startFakeProvider()
  site = startFakeSite()
  app = await startTestServer({
    config: {
      llmBaseUrl: provider.baseUrl,
      llmApiKey: 'test-key',
      llmModel: 'fake-model',
      fetchAllowPrivate: ['127.0.0.1'],
    },
  })
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
  await site[Symbol.asyncDispose]()
  await provider[Symbol.asyncDispose]()
})

const post = (
  path: string,
  json: unknown,
  auth: { cookie?: string; token?: string } = { cookie },
) => app.json(`/api/plugin-wizard/${path}`, { method: 'POST', json, ...auth })

describe('POST /api/plugin-wizard/analyze-login', () => {
  it('answers the exact wire keys in order', async () => {
    provider.answer({ kind: 'good', content: JSON.stringify(FLOW) })
    const { body } = await post('analyze-login', { url: `${site.url}/login` })
    expect(Object.keys(body)).toEqual([
      'operation',
      'success',
      'url',
      'status',
      'form',
      'forms_found',
      'cookies_set',
      'flow',
    ])
    expect(Object.keys(body.form)).toEqual(['action', 'method', 'id', 'fields', 'has_password'])
    expect(Object.keys(body.cookies_set[0])).toEqual(['name', 'domain', 'path'])
  })

  it('reads the login form and the cookies set, and answers the flow the model describes', async () => {
    provider.answer({ kind: 'good', content: JSON.stringify(FLOW) })
    const { status, body } = await post('analyze-login', { url: `${site.url}/login` })
    expect(status).toBe(200)
    expect(body).toMatchObject({ operation: 'wizard_analyze_login', success: 1 })
    expect(body.status).toBe(200)
    expect(body.forms_found).toBe(2)
    expect(body.form).toEqual({
      action: `${site.url}/session`,
      method: 'POST',
      id: 'login',
      has_password: true,
      fields: [
        { name: 'csrf', type: 'hidden', value: 'tok123', required: false },
        { name: 'user', type: 'text', required: true },
        { name: 'pass', type: 'password', required: true },
        { name: 'go', type: 'submit', value: '1', required: false },
      ],
    })
    expect(body.cookies_set).toEqual([{ name: 'sid', domain: '127.0.0.1', path: '/' }])
    expect(body.flow).toEqual(FLOW)
    // The model saw the form and the cookie's name, never its value.
    const asked = provider.requests.at(-1)!
    expect(asked.stream).toBe(false)
    const user = asked.messages.at(-1)!.content
    expect(user).toContain('"tok123"')
    expect(user).toContain('"sid"')
    expect(user).not.toContain('abc')
  })

  it('reads the markup given instead of fetching', async () => {
    provider.answer({ kind: 'good', content: JSON.stringify(FLOW) })
    const { status, body } = await post('analyze-login', {
      url: 'https://members.example.com/login',
      html: LOGIN_PAGE,
    })
    expect(status).toBe(200)
    expect(body.status).toBeNull()
    expect(body.form.action).toBe('https://members.example.com/session')
  })

  it('answers 502 for a malformed answer', async () => {
    provider.answer({ kind: 'malformed' })
    const { status, body } = await post('analyze-login', { url: `${site.url}/login` })
    expect(status).toBe(502)
    expect(body).toMatchObject({ operation: 'wizard_analyze_login', success: 0 })
  })

  it('answers 502 for JSON that is not the flow', async () => {
    provider.answer({ kind: 'good', content: JSON.stringify({ summary: 'no steps' }) })
    const { status, body } = await post('analyze-login', { url: `${site.url}/login` })
    expect(status).toBe(502)
    expect(body.error).toMatch(/expected shape/)
  })

  it('waits for a slow answer', async () => {
    provider.answer({ kind: 'slow', content: JSON.stringify(FLOW), pauseMs: 300 })
    const { status, body } = await post('analyze-login', { url: `${site.url}/login` })
    expect(status).toBe(200)
    expect(body.flow).toEqual(FLOW)
  })

  it('answers 400 for a URL that is not http(s)', async () => {
    const { status, body } = await post('analyze-login', { url: 'file:///etc/passwd' })
    expect(status).toBe(400)
    expect(body.success).toBe(0)
  })

  it('is refused to an API token (403)', async () => {
    const token = createApiToken(app.deps, { name: 'a', role: 'admin' }).secret
    const { status } = await post('analyze-login', { url: `${site.url}/login` }, { token })
    expect(status).toBe(403)
  })
})

describe('POST /api/plugin-wizard/lookup', () => {
  it('reads the page and answers what the model suggests', async () => {
    provider.answer({ kind: 'good', content: JSON.stringify(SUGGESTION) })
    const { status, body } = await post('lookup', { url: `${site.url}/gallery/1` })
    expect(status).toBe(200)
    expect(body).toMatchObject({ operation: 'wizard_lookup', success: 1, query: null })
    expect(body.page.title).toBe('Gallery 1')
    expect(body.page.headings).toEqual([{ tag: 'h1', selector: 'h1#gtitle', text: 'A Fine Book' }])
    expect(body.page.meta).toEqual({ 'og:title': 'A Fine Book' })
    // Links in comments and scripts are not links.
    expect(body.page.links).toEqual([
      { href: `${site.url}/tag/artist:someone`, text: 'someone' },
      { href: `${site.url}/files/1.zip`, text: 'Download' },
    ])
    expect(body.suggestion).toEqual(SUGGESTION)
  })

  it('answers from a query alone, without a page', async () => {
    provider.answer({ kind: 'good', content: JSON.stringify(SUGGESTION) })
    const { status, body } = await post('lookup', { query: 'fake site galleries' })
    expect(status).toBe(200)
    expect(body.page).toBeNull()
    expect(body.query).toBe('fake site galleries')
    expect(provider.requests.at(-1)!.messages.at(-1)!.content).toContain('fake site galleries')
  })

  it('answers 502 for a malformed answer', async () => {
    provider.answer({ kind: 'malformed' })
    const { status, body } = await post('lookup', { url: `${site.url}/gallery/1` })
    expect(status).toBe(502)
    expect(body).toMatchObject({ operation: 'wizard_lookup', success: 0 })
  })

  it('waits for a slow answer', async () => {
    provider.answer({ kind: 'slow', content: JSON.stringify(SUGGESTION), pauseMs: 300 })
    const { status, body } = await post('lookup', { query: 'slow' })
    expect(status).toBe(200)
    expect(body.suggestion).toEqual(SUGGESTION)
  })

  it('answers 400 with both url and query, or neither', async () => {
    expect((await post('lookup', {})).status).toBe(400)
    expect((await post('lookup', { url: `${site.url}/gallery/1`, query: 'x' })).status).toBe(400)
  })

  it('answers 400 for a page the fetch rules refuse', async () => {
    await using strict = await startTestServer({
      config: { llmBaseUrl: provider.baseUrl, llmApiKey: 'test-key', llmModel: 'fake-model' },
    })
    const session = await strict.login()
    const before = provider.requests.length
    const { status, body } = await strict.json('/api/plugin-wizard/lookup', {
      method: 'POST',
      json: { url: `${site.url}/gallery/1` },
      cookie: session,
    })
    expect(status).toBe(400)
    expect(body.error).toMatch(/^The page could not be fetched \(private_address\)/)
    expect(provider.requests.length).toBe(before)
  })
})

describe('analyze-login and lookup without a provider key', () => {
  it('answer 400', async () => {
    await using bare = await startTestServer({ config: { fetchAllowPrivate: ['127.0.0.1'] } })
    const session = await bare.login()
    for (const [path, json] of [
      ['analyze-login', { url: `${site.url}/login` }],
      ['lookup', { url: `${site.url}/gallery/1` }],
    ] as const) {
      const { status, body } = await bare.json(`/api/plugin-wizard/${path}`, {
        method: 'POST',
        json,
        cookie: session,
      })
      expect(status).toBe(400)
      expect(body.error).toBe('No language-model provider key is configured.')
    }
  })
})
