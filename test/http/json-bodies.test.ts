// JSON bodies are capped in size and nesting before anything parses or validates them, and a
// refused body is never echoed back: a small deep body must not stall the server for anyone.
import { describe, expect, it } from 'bun:test'
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../../src/http/json-body.ts'
import { expectAppError } from '../helpers/expect.ts'
import { startTestServer, type Wire } from '../helpers/server.ts'

const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth)

describe('jsonDepthExceeds', () => {
  it('counts objects and arrays but not brackets inside strings', () => {
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 3)).toBe(false)
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 2)).toBe(true)
    expect(jsonDepthExceeds('{"a":"[[[[[[{{{{"}', 1)).toBe(false)
    expect(jsonDepthExceeds('{"a":"\\"[[[["}', 1)).toBe(false)
    expect(jsonDepthExceeds('[1,[2],[3],[4]]', 2)).toBe(false)
  })
})

describe('JSON request bodies', () => {
  it('answers a body nested 20,000 deep with a 400 Env, and search stays responsive meanwhile', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const body = nested(20_000)
    const attacks = Array.from({ length: 3 }, () =>
      app.req('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    )
    // Before the cap, each such body took 5-14 s of CPU while the framework described it. The
    // answers below are the depth check's own, made before JSON.parse or a schema saw the body (a
    // parse or validation error reads otherwise): that work never starts, and the search sent
    // meanwhile is answered.
    const search = await app.req('/api/search?filter=anything', { cookie })
    expect([200, 204]).toContain(search.status)
    for (const res of await Promise.all(attacks)) {
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        operation: 'login',
        success: 0,
        error: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
      })
    }
  })

  it('reads a body at the depth cap and refuses one level past it, on any route with a body', async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    const atCap = await app.req('/api/categories', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: `{"name":"ok","extra":${nested(MAX_JSON_DEPTH - 1)}}`,
      cookie,
    })
    expect(atCap.status).not.toBe(500)
    expect(((await atCap.json()) as Wire).error ?? '').not.toContain('nests deeper')

    const pastCap = await app.req('/api/categories', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: `{"name":"no","extra":${nested(MAX_JSON_DEPTH)}}`,
      cookie,
    })
    expect(pastCap.status).toBe(400)
    expect(await pastCap.json()).toMatchObject({ operation: 'create_category', success: 0 })
  })

  it('answers 413 Env for a JSON body past 1 MiB before reading it', async () => {
    await using app = await startTestServer()
    const res = await app.req('/api/login', {
      method: 'POST',
      json: { password: 'x'.repeat(1024 * 1024) },
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      operation: 'login',
      success: 0,
      error: 'The request body is larger than 1 MiB.',
    })
  })

  it('never echoes a rejected value in a validation error', async () => {
    await using app = await startTestServer()
    const res = await app.req('/api/login', {
      method: 'POST',
      json: { password: { secret: 'hunter2-do-not-echo' } },
    })
    expect(res.status).toBe(400)
    const text = await res.text()
    expect(text).not.toContain('hunter2-do-not-echo')
    expect(JSON.parse(text)).toMatchObject({ operation: 'login', success: 0 })
  })

  it('refuses a JSON body that is not an object, and malformed JSON, with 400 Env', async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    for (const body of ['[1,2]', '"text"', 'null', '{"name":']) {
      const res = await app.req('/api/categories', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body,
        cookie,
      })
      await expectAppError(res, 400, 'create_category')
    }
  })
})
