// Huge pages are streamed, not read whole per request: six readers of one 200 MB page took the
// server from 160 MB to 2,450 MB. Measured as the growth of this process's peak RSS (the server
// runs in it; the readers run in a process of their own), with the peak reset through
// /proc/self/clear_refs just before the reads.
import { describe, expect, it } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { writeHugeZip } from '../helpers/huge-zip.ts'
import { startTestServer } from '../helpers/server.ts'

const MiB = 1024 * 1024
const STORED_BYTES = 64 * MiB
const DEFLATED_BYTES = 48 * MiB
const READERS = 6

function statusBytes(field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync('/proc/self/status', 'utf8')
  const kb = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1]
  if (kb === undefined) throw new Error(`no ${field} in /proc/self/status`)
  return Number(kb) * 1024
}

/** The peak RSS growth while `work` runs, from a peak reset to the current RSS. */
async function peakGrowth(work: () => Promise<unknown>): Promise<number> {
  Bun.gc(true)
  writeFileSync('/proc/self/clear_refs', '5')
  const base = statusBytes('VmRSS')
  await work()
  return statusBytes('VmHWM') - base
}

const READER = join(import.meta.dir, '..', 'helpers', 'parallel-reader.ts')

/**
 * READERS readers of one URL at once, each to its end, in a client process of their own: only
 * the server's memory is in this process. Each answers its status, type, size and CRC-32.
 */
async function readInParallel(url: string, cookie: string) {
  const proc = Bun.spawn([process.execPath, READER, url, String(READERS), cookie], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const out = await new Response(proc.stdout).text()
  expect(await proc.exited).toBe(0)
  return JSON.parse(out) as { status: number; type: string | null; size: number; crc: number }[]
}

describe('GET /api/archives/:id/page of a huge page', () => {
  it('streams it: six readers at once cost a bounded amount, not six copies', async () => {
    let crcs: Record<string, number> = {}
    await using app = await startTestServer({
      beforeStart: async (content) => {
        // A small first page: the cover job must not read a huge one during the measure.
        await makeCbz(join(content, 'cover-only.cbz'))
        crcs = await writeHugeZip(join(content, 'Huge.cbz'), [
          { name: '000.jpg', bytes: 1024, compression: 'store' },
          { name: 'big-stored.jpg', bytes: STORED_BYTES, compression: 'store' },
          { name: 'big-deflated.jpg', bytes: DEFLATED_BYTES, compression: 'deflate' },
        ])
      },
    })
    await app.idle()
    await app.jobsDone()
    const cookie = await app.login()
    const id = (await app.idsByTitle(cookie))['Huge']!
    const readAll = async (name: string) =>
      (await readInParallel(`${app.url}/api/archives/${id}/page?path=${name}`, cookie)).map(
        ({ status, type, size, crc }) => {
          expect(status).toBe(200)
          expect(type).toBe('image/jpeg')
          return { size, crc }
        },
      )
    let stored: { size: number; crc: number }[] = []
    const storedGrowth = await peakGrowth(async () => (stored = await readAll('big-stored.jpg')))
    expect(stored).toEqual(Array(READERS).fill({ size: STORED_BYTES, crc: crcs['big-stored.jpg'] }))
    // Read whole, six readers grew it by ~1,000 MB here; sent from the file, by ~50 MB.
    expect(storedGrowth).toBeLessThan(READERS * STORED_BYTES)

    let deflated: { size: number; crc: number }[] = []
    const deflatedGrowth = await peakGrowth(
      async () => (deflated = await readAll('big-deflated.jpg')),
    )
    expect(deflated).toEqual(
      Array(READERS).fill({ size: DEFLATED_BYTES, crc: crcs['big-deflated.jpg'] }),
    )
    // Inflated whole (chunks, then their concatenation), ~760-940 MB; streamed, ~200-240 MB:
    // chunks already sent stay garbage until the next collection, but none is held.
    expect(deflatedGrowth).toBeLessThan(1.5 * READERS * DEFLATED_BYTES)
  }, 120_000)
})
