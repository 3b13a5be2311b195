// A zip of huge pages written piece by piece, so making it never holds a page in memory (the
// memory tests and bench/huge-pages.ts measure the server, not the fixture).
import { open } from 'node:fs/promises'
import { createDeflateRaw, crc32 } from 'node:zlib'

export type HugePage = { name: string; bytes: number; compression: 'store' | 'deflate' }

const CHUNK = 1024 * 1024

/** Random bytes (incompressible, as image data is), one chunk at a time. */
function* randomChunks(total: number): Generator<Uint8Array> {
  for (let left = total; left > 0; left -= CHUNK) {
    const chunk = new Uint8Array(Math.min(CHUNK, left))
    for (let at = 0; at < chunk.length; at += 65536)
      crypto.getRandomValues(chunk.subarray(at, Math.min(at + 65536, chunk.length)))
    yield chunk
  }
}

/** Writes the zip at `path` (no zip64: pages under 4 GiB). Returns each page's CRC-32. */
export async function writeHugeZip(
  path: string,
  pages: HugePage[],
): Promise<Record<string, number>> {
  const crcs: Record<string, number> = {}
  const file = await open(path, 'w')
  const central: Buffer[] = []
  let offset = 0
  try {
    for (const page of pages) {
      const name = Buffer.from(page.name, 'utf8')
      const headerAt = offset
      offset += 30 + name.length
      let crc = 0
      let written = 0
      const write = async (bytes: Uint8Array) => {
        await file.write(bytes, 0, bytes.length, offset)
        offset += bytes.length
        written += bytes.length
      }
      if (page.compression === 'store')
        for (const chunk of randomChunks(page.bytes)) {
          crc = crc32(chunk, crc)
          await write(chunk)
        }
      else {
        const deflate = createDeflateRaw({ level: 1 })
        const out = (async () => {
          for await (const chunk of deflate) await write(chunk as Buffer)
        })()
        for (const chunk of randomChunks(page.bytes)) {
          crc = crc32(chunk, crc)
          if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r))
        }
        deflate.end()
        await out
      }
      crcs[page.name] = crc >>> 0
      const fields = (h: Buffer, at: number) => {
        h.writeUInt16LE(20, at)
        h.writeUInt16LE(0x800, at + 2)
        h.writeUInt16LE(page.compression === 'deflate' ? 8 : 0, at + 4)
        h.writeUInt32LE(crc >>> 0, at + 10)
        h.writeUInt32LE(written, at + 14)
        h.writeUInt32LE(page.bytes, at + 18)
        h.writeUInt16LE(name.length, at + 22)
      }
      const local = Buffer.alloc(30)
      local.writeUInt32LE(0x04034b50, 0)
      fields(local, 4)
      await file.write(Buffer.concat([local, name]), 0, 30 + name.length, headerAt)
      const dir = Buffer.alloc(46)
      dir.writeUInt32LE(0x02014b50, 0)
      dir.writeUInt16LE(20, 4)
      fields(dir, 6)
      dir.writeUInt32LE(headerAt, 42)
      central.push(dir, name)
    }
    const dirBytes = Buffer.concat(central)
    const end = Buffer.alloc(22)
    end.writeUInt32LE(0x06054b50, 0)
    end.writeUInt16LE(pages.length, 8)
    end.writeUInt16LE(pages.length, 10)
    end.writeUInt32LE(dirBytes.length, 12)
    end.writeUInt32LE(offset, 16)
    await file.write(Buffer.concat([dirBytes, end]), 0, dirBytes.length + 22, offset)
  } finally {
    await file.close()
  }
  return crcs
}
