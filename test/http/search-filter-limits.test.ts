// Filter size: repeated terms count once (a 15 KB filter of one repeated letter is the search for
// that letter), and past 256 distinct terms or 4,096 characters of them a search is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { seedArchive, seedCategory } from '../helpers/seed.ts'

let app: TestServer
let cookie: string

const get = (path: string) => app.json(path, { cookie })

/** Commas stay as they are: a 15 KB filter still fits Bun's 16 KiB request line. */
const encode = (filter: string) => encodeURIComponent(filter).replaceAll('%2C', ',')
const query = (filter: string) => `/api/search?filter=${encode(filter)}`

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  seedArchive(app.deps, { title: 'Banana', tags: 'misc:fruit' })
  seedArchive(app.deps, { title: 'Cherry', tags: 'misc:fruit, artist:kaito' })
  seedArchive(app.deps, { title: 'Plum', tags: 'misc:stone' })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/search with repeated terms', () => {
  it('answers a 7,500-term filter of one repeated letter as the letter alone', async () => {
    const repeated = Array(7500).fill('a').join(',')
    expect(repeated.length).toBeGreaterThan(14_000)
    const once = await get(query('a'))
    const many = await get(query(repeated))
    expect(many.status).toBe(200)
    expect(once.body.recordsFiltered).toBe(2)
    expect(many.body).toEqual(once.body)
  })

  it('drops the terms a dynamic category repeats from the filter', async () => {
    const category = seedCategory(app.deps, { search: 'misc:fruit, -cherry' })
    const both = await get(`/api/search/ids?filter=-cherry,misc:fruit&category=${category}`)
    expect(both.status).toBe(200)
    expect(both.body.data).toHaveLength(1)
  })
})

describe('GET /api/search with too many terms', () => {
  it('answers 400 past 256 distinct terms, naming the limit', async () => {
    const terms = Array.from({ length: 257 }, (_, i) => `-t${i}`)
    const { status, body } = await get(query(terms.join(',')))
    expect(status).toBe(400)
    expect(body).toEqual({
      operation: 'search',
      success: 0,
      error: 'filter has 257 distinct terms; at most 256 are allowed.',
    })
  })

  it('accepts 256 distinct terms, and repeats past 256 that leave 256 distinct', async () => {
    const terms = Array.from({ length: 256 }, (_, i) => `-t${i}`)
    const exact = await get(query(terms.join(',')))
    expect(exact.status).toBe(200)
    expect(exact.body.recordsFiltered).toBe(3)
    const repeated = await get(query([...terms, ...terms].join(',')))
    expect(repeated.status).toBe(200)
  })

  it('answers 400 past 32 distinct wildcard terms', async () => {
    const wild = (n: number) => Array.from({ length: n }, (_, i) => `-*a*b${i}`).join(',')
    expect((await get(query(wild(32)))).status).toBe(200)
    const { status, body } = await get(query(wild(33)))
    expect(status).toBe(400)
    expect(body.error).toBe('filter has 33 wildcard terms; at most 32 are allowed.')
  })

  it('answers 400 on the other search endpoints too', async () => {
    const filter = encode(Array.from({ length: 300 }, (_, i) => `t${i}`).join(','))
    for (const path of ['/api/search/ids', '/api/search/random', '/api/search/suggest']) {
      const { status, body } = await get(`${path}?filter=${filter}`)
      expect({ path, status }).toEqual({ path, status: 400 })
      expect(body.error).toBe('filter has 300 distinct terms; at most 256 are allowed.')
    }
  })

  it('answers 400 when the distinct terms hold more than 4,096 characters', async () => {
    const long = await get(query('x'.repeat(4097)))
    expect(long.status).toBe(400)
    expect(long.body).toEqual({
      operation: 'search',
      success: 0,
      error: 'filter terms hold 4097 characters; at most 4096 are allowed.',
    })
    const atLimit = await get(query('x'.repeat(4096)))
    expect(atLimit.status).toBe(200)
    expect(atLimit.body.recordsFiltered).toBe(0)
  })
})
