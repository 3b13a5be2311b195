// Two servers in one process keep their own state: what one remembers (an unreadable file, a
// locked-out address) never changes what the other does.
import { describe, expect, it } from 'bun:test'
import { stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { MAX_LOGIN_FAILURES } from '../../src/domain/auth/login-throttle.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, TEST_PASSWORD, type TestServer, type Wire } from '../helpers/server.ts'

async function titles(app: TestServer): Promise<string[]> {
  const cookie = await app.login()
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  return list.map((a) => a.title)
}

describe('two servers in one process', () => {
  it('a file one server found unreadable is read by the other, whose file it is not', async () => {
    const mtime = new Date('2024-01-02T03:04:05Z')
    const place = async (path: string, bytes: Uint8Array) => {
      await writeFile(path, bytes)
      await utimes(path, mtime, mtime)
    }
    // The same relative path, size and mtime in both content folders: only the bytes differ.
    let good = ''
    await using broken = await startTestServer({
      beforeStart: async (content) => {
        good = await makeCbz(join(content, '..', 'good.cbz'), { pages: 2 })
        const { size } = await stat(good)
        await place(join(content, 'Same.cbz'), new Uint8Array(size).fill(0x2a))
      },
    })
    // Its first scan finds the file unreadable and remembers it.
    await broken.idle()
    expect(await titles(broken)).toEqual([])
    await using readable = await startTestServer({
      beforeStart: async (content) =>
        place(join(content, 'Same.cbz'), await Bun.file(good).bytes()),
    })
    await readable.idle()
    expect(await titles(readable)).toEqual(['Same'])
  })

  it('an address locked out of one server can still log in to the other', async () => {
    await using locked = await startTestServer()
    await using other = await startTestServer()
    const login = (app: TestServer, password: string) =>
      app.req('/api/login', { method: 'POST', json: { password } })
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++)
      expect((await login(locked, `guess-${i}`)).status).toBe(401)
    expect((await login(locked, TEST_PASSWORD)).status).toBe(429)
    expect((await login(other, TEST_PASSWORD)).status).toBe(200)
  })
})
