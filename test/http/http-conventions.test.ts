// HTTP conventions every route shares: 405 with Allow for a wrong method, the security headers,
// no caching of answers that carry credentials or settings, and CORS exposing download names.
import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer } from '../helpers/server.ts'

describe('a wrong method on an existing route', () => {
  it('answers 405 Env with an Allow header listing the methods the path takes', async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    const res = await app.req('/api/info', { method: 'DELETE', cookie })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD')
    expect(await res.json()).toMatchObject({
      success: 0,
      error: 'Method DELETE is not allowed here.',
    })

    const withParam = await app.req('/api/archives/0123456789abcdef0123456789abcdef01234567/page', {
      method: 'POST',
      cookie,
    })
    expect(withParam.status).toBe(405)
    expect(withParam.headers.get('allow')).toBe('GET, HEAD')

    const categories = await app.req('/api/categories', { method: 'PATCH', cookie })
    expect(categories.status).toBe(405)
    expect(categories.headers.get('allow')).toBe('GET, HEAD, PUT')
  })

  it('still answers 404 Env for a path no route has', async () => {
    await using app = await startTestServer()
    const res = await app.req('/api/no-such-thing', { method: 'DELETE' })
    expect(res.status).toBe(404)
    expect(res.headers.get('allow')).toBeNull()
    expect(await res.json()).toMatchObject({ success: 0 })
  })
})

describe('security headers', () => {
  it('sends no-referrer and DENY framing on every answer, errors included', async () => {
    await using app = await startTestServer()
    for (const path of ['/api/info', '/api/no-such-thing', '/api/archives']) {
      const res = await app.req(path)
      expect({ path, referrer: res.headers.get('referrer-policy') }).toEqual({
        path,
        referrer: 'no-referrer',
      })
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  it('marks login, token, session and settings answers no-store, and leaves pages cacheable', async () => {
    await using app = await startTestServer()
    const login = await app.req('/api/login', {
      method: 'POST',
      json: { password: 'test-password' },
    })
    expect(login.headers.get('cache-control')).toBe('no-store')
    const cookie = await app.login()
    for (const path of ['/api/tokens', '/api/sessions', '/api/settings', '/api/login/status']) {
      const res = await app.req(path, { cookie })
      expect({ path, cache: res.headers.get('cache-control') }).toEqual({ path, cache: 'no-store' })
    }
    const created = await app.req('/api/tokens', { method: 'POST', json: { name: 'x' }, cookie })
    expect(created.headers.get('cache-control')).toBe('no-store')
    const refresh = await app.req('/api/token/refresh', { method: 'POST' })
    expect(refresh.headers.get('cache-control')).toBe('no-store')
    const info = await app.req('/api/info')
    expect(info.headers.get('cache-control')).not.toBe('no-store')
  })
})

describe('CORS', () => {
  it('exposes Content-Disposition so cross-origin downloads keep their file name', async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    await makeCbz(join(app.contentDir, 'Named Book.cbz'), { pages: 1 })
    await app.idle()
    await app.req('/api/shinobu/rescan', { method: 'POST', cookie })
    await app.idle()
    const put = await app.req('/api/settings', {
      method: 'PUT',
      json: { enable_cors: true, cors_origins: ['https://reader.example'] },
      cookie,
    })
    expect(put.status).toBe(200)
    const list = (await (await app.req('/api/archives', { cookie })).json()) as { arcid: string }[]
    const res = await app.req(`/api/archives/${list[0]!.arcid}/download`, {
      cookie,
      headers: { origin: 'https://reader.example' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://reader.example')
    expect(res.headers.get('access-control-expose-headers')).toBe('Content-Disposition')
    expect(res.headers.get('content-disposition')).toContain('Named Book.cbz')
  })
})
