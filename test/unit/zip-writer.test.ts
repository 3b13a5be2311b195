// The zip writer read back by yauzl and by the server's own archive reader.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import yauzl from 'yauzl'
import { createArchiveReader } from '../../src/archive/reader.ts'
import { writeZip } from '../../src/archive/zip-writer.ts'

const dir = mkdtempSync(join(tmpdir(), 'zip-writer-'))
const reader = createArchiveReader({ tempDir: join(dir, 'tmp') })
afterAll(async () => {
  await reader.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Every entry of a zip buffer: name, compression method and bytes, as yauzl reads them. */
async function readAll(zip: Uint8Array) {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.from(zip), { lazyEntries: true }, (err, z) =>
      err ? reject(err) : resolve(z!),
    ),
  )
  const out: { name: string; method: number; data: Buffer }[] = []
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject)
    file.on('end', () => resolve())
    file.on('entry', (entry: yauzl.Entry) =>
      file.openReadStream(entry, async (err, stream) => {
        if (err) return reject(err)
        const chunks: Buffer[] = []
        for await (const chunk of stream!) chunks.push(chunk as Buffer)
        out.push({
          name: entry.fileName,
          method: entry.compressionMethod,
          data: Buffer.concat(chunks),
        })
        file.readEntry()
      }),
    )
    file.readEntry()
  })
  return out
}

describe('writeZip', () => {
  it('writes entries yauzl reads back byte for byte, deflated only when smaller', async () => {
    const text = new TextEncoder().encode('export const x = 1\n'.repeat(200))
    const random = crypto.getRandomValues(new Uint8Array(1000))
    const entries = await readAll(
      writeZip([
        { name: 'custom/metadata/a.ts', data: text },
        { name: 'b.bin', data: random },
        { name: 'empty.ts', data: new Uint8Array(0) },
        { name: 'dossier/é.ts', data: new TextEncoder().encode('ü') },
      ]),
    )
    expect(entries.map((e) => e.name)).toEqual([
      'custom/metadata/a.ts',
      'b.bin',
      'empty.ts',
      'dossier/é.ts',
    ])
    expect(entries[0]!.method).toBe(8)
    expect(entries[1]!.method).toBe(0)
    expect(Buffer.compare(entries[0]!.data, Buffer.from(text))).toBe(0)
    expect(Buffer.compare(entries[1]!.data, Buffer.from(random))).toBe(0)
    expect(entries[2]!.data.byteLength).toBe(0)
    expect(entries[3]!.data.toString()).toBe('ü')
  })

  it('is read by the archive reader: pages in order and any entry by name', async () => {
    const path = join(dir, 'out.zip')
    const page = new Uint8Array([0xff, 0xd8, 0xff, 0xd9])
    writeFileSync(
      path,
      writeZip([
        { name: '10.jpg', data: page },
        { name: '2.jpg', data: page },
        { name: 'ComicInfo.xml', data: new TextEncoder().encode('<ComicInfo/>') },
      ]),
    )
    expect(await reader.listPages(path)).toEqual(['2.jpg', '10.jpg'])
    const xml = await reader.readEntry(path, 'ComicInfo.xml', 1024)
    expect(new TextDecoder().decode(xml!)).toBe('<ComicInfo/>')
  })

  it('writes an empty zip', async () => {
    expect(await readAll(writeZip([]))).toEqual([])
  })
})
