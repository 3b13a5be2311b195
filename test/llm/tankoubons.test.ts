// Tankoubon rename suggestions and group suggestions through the real server, with a fake provider
// on 127.0.0.1 answering well, malformed and too slowly; an invalid answer is a 502 and nothing of
// it is used. The ignore list of group suggestions.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { saveIgnoredSuggestion } from '../../src/db/repos/group-suggestions.repo.ts'
import { groupKey } from '../../src/domain/collections/group-suggestions.ts'
import { expectAppError } from '../helpers/expect.ts'
import { seedArchive, seedTankoubon } from '../helpers/seed.ts'
import { startTestServer, type JsonAnswer, type TestServer, type Wire } from '../helpers/server.ts'
import { startFakeProvider, userPrompt, type FakeProvider, type Reply } from './fake-provider.ts'

const KEY = 'sk-tank-test-secret-7781'
const SLOW: Reply = { delayMs: 1500, then: { json: {} } }

let provider: FakeProvider
let app: TestServer
let cookie: string
let tank: string
const members: string[] = []
const series: Record<string, string[]> = {}

beforeAll(async () => {
  provider = startFakeProvider()
  app = await startTestServer({
    config: {
      llmBaseUrl: provider.baseUrl,
      llmApiKey: KEY,
      llmModel: 'fake-model',
      llmTimeoutMs: 300,
    },
  })
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
  for (const title of [
    '[Grp] Raw chapter 01 (scan)',
    '[Grp] Raw chapter 02 (scan)',
    'Raw 03 final',
  ])
    members.push(seedArchive(app.deps, { title }).id)
  tank = seedTankoubon(app.deps, { name: 'raw stuff', members })
  const seed = (name: string, titles: string[], tags = '') =>
    (series[name] = titles.map((title) => seedArchive(app.deps, { title, tags }).id))
  seed(
    'blue',
    ['Blue Sky Vol. 1', 'Blue Sky Vol. 2', '[Circle] Blue Sky v3 (English)'],
    'artist:ann',
  )
  seed('red', ['Red Moon ch 1', 'Red Moon ch 2'])
  seed('gamma', ['Alpha', 'Beta'], 'series:gamma')
  seedArchive(app.deps, { title: 'Lonely One-shot' })
  // Same title, other artists: not one series.
  seedArchive(app.deps, { title: 'Untitled Collection', tags: 'artist:x' })
  seedArchive(app.deps, { title: 'Untitled Collection', tags: 'artist:y' })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
  await provider[Symbol.asyncDispose]()
})

/** A POST as admin; no answer ever holds the provider key. */
async function post(path: string, json?: unknown): Promise<JsonAnswer<Wire>> {
  const res = await app.req(path, { method: 'POST', cookie, json })
  const text = await res.text()
  expect(text).not.toContain(KEY)
  return { status: res.status, body: JSON.parse(text), headers: res.headers }
}

const renameAll = () => post(`/api/tankoubons/${tank}/ai/rename-suggestions`)
const renameOne = (archive_index: unknown) =>
  post(`/api/tankoubons/${tank}/ai/rename-chapter`, { archive_index })
const groups = (body?: unknown) => post('/api/tankoubons/ai-group-suggestions', body)

async function tankName(): Promise<string> {
  return (await app.json(`/api/tankoubons/${tank}`, { cookie })).body.name
}

describe('GET /api/llm/key-status', () => {
  it('says a provider is configured', async () => {
    const res = await app.json('/api/llm/key-status', { cookie })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ configured: true })
  })
})

describe('POST /api/tankoubons/{id}/ai/rename-suggestions', () => {
  it('sends the name and the members in order, and answers the suggestions', async () => {
    provider.requests.length = 0
    provider.reply = { json: { name: 'Raw', chapters: ['Chapter 1', 'Chapter 2', 'Chapter 3'] } }
    const res = await renameAll()
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      operation: 'ai_rename_suggestions',
      success: 1,
      id: tank,
      current_name: 'raw stuff',
      name: 'Raw',
      chapters: [
        {
          archive_index: 0,
          id: members[0],
          current: '[Grp] Raw chapter 01 (scan)',
          name: 'Chapter 1',
        },
        {
          archive_index: 1,
          id: members[1],
          current: '[Grp] Raw chapter 02 (scan)',
          name: 'Chapter 2',
        },
        { archive_index: 2, id: members[2], current: 'Raw 03 final', name: 'Chapter 3' },
      ],
    })
    const prompt = userPrompt(provider.requests[0]!)
    expect(prompt).toContain('raw stuff')
    const at = (title: string) => prompt.indexOf(title)
    expect(at('Raw chapter 01')).toBeLessThan(at('Raw chapter 02'))
    expect(at('Raw chapter 02')).toBeLessThan(at('Raw 03 final'))
    // Suggestions only: the Tankoubon keeps its name.
    expect(await tankName()).toBe('raw stuff')
  })

  it('answers 502 for malformed answers: not JSON, a chapter short, a blank name', async () => {
    for (const reply of [
      { content: 'Here you go: Raw' },
      { json: { name: 'Raw', chapters: ['Chapter 1', 'Chapter 2'] } },
      { json: { name: '   ', chapters: ['a', 'b', 'c'] } },
    ] satisfies Reply[]) {
      provider.reply = reply
      const error = await expectAppError(await renameAll(), 502, 'ai_rename_suggestions')
      expect(error).toContain('language model')
    }
    expect(await tankName()).toBe('raw stuff')
  })

  it('answers 502 when the provider is too slow', async () => {
    provider.reply = SLOW
    const error = await expectAppError(await renameAll(), 502, 'ai_rename_suggestions')
    expect(error).toContain('300 ms')
  })

  it('answers 400 for an unknown Tankoubon', async () => {
    await expectAppError(
      await post('/api/tankoubons/TANK_0000000001/ai/rename-suggestions'),
      400,
      'ai_rename_suggestions',
    )
  })
})

describe('POST /api/tankoubons/{id}/ai/rename-chapter', () => {
  it('suggests a name for the chapter at archive_index (0-based)', async () => {
    provider.requests.length = 0
    provider.reply = { json: { name: 'Chapter 2' } }
    const res = await renameOne(1)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      operation: 'ai_rename_chapter',
      success: 1,
      id: tank,
      archive_index: 1,
      archive: members[1],
      current: '[Grp] Raw chapter 02 (scan)',
      name: 'Chapter 2',
    })
    expect(userPrompt(provider.requests[0]!)).toContain('member 1 only')
  })

  it('answers 400 for an index out of range or a bad body, before calling the model', async () => {
    provider.requests.length = 0
    await expectAppError(await renameOne(3), 400, 'ai_rename_chapter')
    await expectAppError(await renameOne(-1), 400, 'ai_rename_chapter')
    await expectAppError(await renameOne('one'), 400, 'ai_rename_chapter')
    await expectAppError(await post(`/api/tankoubons/${tank}/ai/rename-chapter`), 400)
    expect(provider.requests).toHaveLength(0)
  })

  it('answers 502 for a malformed or slow answer', async () => {
    for (const reply of [
      { content: '{"name":' },
      { json: { title: 'x' } },
      SLOW,
    ] satisfies Reply[]) {
      provider.reply = reply
      await expectAppError(await renameOne(0), 502, 'ai_rename_chapter')
    }
  })
})

describe('POST /api/tankoubons/ai-group-suggestions', () => {
  const good: Reply = {
    json: {
      groups: [
        { index: 0, same_series: true, name: 'Blue Sky' },
        { index: 1, same_series: true, name: 'Gamma' },
        { index: 2, same_series: false },
      ],
    },
  }

  it('finds candidates by title and series tag, and the model confirms and names them', async () => {
    provider.requests.length = 0
    provider.reply = good
    const res = await groups()
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      operation: 'ai_group_suggestions',
      success: 1,
      candidates: 3,
      rejected: 1,
      ignored: 0,
    })
    const suggestions = res.body.suggestions as Wire[]
    expect(suggestions.map((s) => s.name)).toEqual(['Blue Sky', 'Gamma'])
    expect(suggestions[0]!.archives.map((a: Wire) => a.id).sort()).toEqual([...series.blue!].sort())
    expect(suggestions[0]!.reasons).toEqual(['title'])
    expect(suggestions[0]!.key).toBe(groupKey(series.blue!))
    expect(suggestions[1]).toMatchObject({ reasons: ['series'], key: groupKey(series.gamma!) })
    // Sent: the three candidates, in the server's order; never archives of a Tankoubon, lone
    // titles, or one title of two artists.
    const prompt = userPrompt(provider.requests[0]!)
    for (const title of ['Blue Sky Vol. 2', 'Alpha', 'Red Moon ch 2'])
      expect(prompt).toContain(title)
    for (const title of ['Raw 03 final', 'Lonely', 'Untitled']) expect(prompt).not.toContain(title)
  })

  it('limit caps the candidates sent', async () => {
    provider.requests.length = 0
    provider.reply = { json: { groups: [{ index: 0, same_series: true, name: 'Blue Sky' }] } }
    const res = await groups({ limit: 1 })
    expect(res.body).toMatchObject({ candidates: 3, rejected: 0 })
    expect(userPrompt(provider.requests[0]!)).not.toContain('Red Moon')
    await expectAppError(await groups({ limit: 0 }), 400, 'ai_group_suggestions')
    await expectAppError(await groups({ limit: 'all' }), 400, 'ai_group_suggestions')
  })

  it('answers 502 for malformed answers, and for a slow provider', async () => {
    for (const reply of [
      { content: 'groups: all of them' },
      { json: { groups: [{ index: 0, same_series: 'yes' }] } },
      { json: { groups: [{ index: 9, same_series: true, name: 'Ghost' }] } },
      { json: { groups: [{ index: 0, same_series: true, name: ' ' }] } },
      {
        json: {
          groups: [
            { index: 0, same_series: true, name: 'A' },
            { index: 0, same_series: false },
          ],
        },
      },
      SLOW,
    ] satisfies Reply[]) {
      provider.reply = reply
      await expectAppError(await groups(), 502, 'ai_group_suggestions')
    }
    expect((await app.json('/api/tankoubons', { cookie })).body.result).toHaveLength(1)
  })
})

describe('ignoring group suggestions', () => {
  const ignored = async () =>
    ((await app.json('/api/tankoubons/ai-group-suggestions/ignored', { cookie })).body.ignored ??
      []) as Wire[]

  it('an ignored suggestion is left out of the next round, and comes back when re-enabled', async () => {
    const res = await post('/api/tankoubons/ai-group-suggestions/ignore', {
      archives: series.blue,
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      operation: 'ignore_group_suggestion',
      success: 1,
      key: groupKey(series.blue!),
      archives: [...series.blue!].sort(),
    })
    expect((await ignored()).map((e) => e.key)).toEqual([groupKey(series.blue!)])

    provider.requests.length = 0
    provider.reply = { json: { groups: [{ index: 0, same_series: true, name: 'Gamma' }] } }
    const round = await groups()
    expect(round.body).toMatchObject({ candidates: 2, ignored: 1 })
    expect(userPrompt(provider.requests[0]!)).not.toContain('Blue Sky')

    const removed = await app.json('/api/tankoubons/ai-group-suggestions/ignore', {
      method: 'DELETE',
      cookie,
      json: { key: groupKey(series.blue!) },
    })
    expect(removed.body).toMatchObject({ success: 1, key: groupKey(series.blue!), removed: true })
    expect(await ignored()).toEqual([])
    // Idempotent: again is a no-op, by key or by archives.
    for (const json of [{ key: groupKey(series.blue!) }, { archives: series.blue }]) {
      const again = await app.json('/api/tankoubons/ai-group-suggestions/ignore', {
        method: 'DELETE',
        cookie,
        json,
      })
      expect(again.status).toBe(200)
      expect(again.body).toMatchObject({ success: 1, removed: false })
    }
  })

  it('ignoring again overwrites ignored_at and keeps one entry', async () => {
    saveIgnoredSuggestion(app.deps.db, {
      key: groupKey(series.red!),
      archiveIds: [...series.red!].sort(),
      ignoredAt: 1000,
    })
    const res = await post('/api/tankoubons/ai-group-suggestions/ignore', {
      archives: [...series.red!].reverse(),
    })
    expect(res.body.ignored_at).toBeGreaterThan(1000)
    const list = await ignored()
    expect(list).toEqual([
      {
        key: groupKey(series.red!),
        archives: [...series.red!].sort(),
        ignored_at: res.body.ignored_at,
      },
    ])
  })

  it('answers 400 for fewer than two archives, a bad id or a bad key', async () => {
    for (const json of [
      { archives: [series.red![0]] },
      { archives: ['nope', 'nada'] },
      {},
      { key: 'x' },
    ])
      await expectAppError(
        await post('/api/tankoubons/ai-group-suggestions/ignore', json),
        400,
        'ignore_group_suggestion',
      )
    for (const json of [{ key: 'not-a-key' }, {}])
      await expectAppError(
        await app.json('/api/tankoubons/ai-group-suggestions/ignore', {
          method: 'DELETE',
          cookie,
          json,
        }),
        400,
        'unignore_group_suggestion',
      )
  })

  it('reading the list needs a caller, any caller (not only admin); ignoring is admin only', async () => {
    const anonymous = await app.json('/api/tankoubons/ai-group-suggestions/ignored')
    expect(anonymous.status).toBe(401)
    const refused = await app.json('/api/tankoubons/ai-group-suggestions/ignore', {
      method: 'POST',
      json: { archives: series.gamma },
    })
    expect(refused.status).toBe(401)
  })
})
