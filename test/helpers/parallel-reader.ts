// A client in its own process for memory tests: reads one URL with N readers at once to the end,
// keeping only each body's size and CRC-32, and prints them as JSON. Run as
// `bun test/helpers/parallel-reader.ts <url> <readers> <cookie>`; what it reads never counts in
// the memory of the test process, where the server runs.
import { crc32 } from 'node:zlib'

const [url, readers, cookie] = process.argv.slice(2)

async function drain(
  res: Response,
): Promise<{ status: number; type: string | null; size: number; crc: number }> {
  const chunks = res.body!.getReader()
  let size = 0
  let crc = 0
  for (;;) {
    const { done, value } = await chunks.read()
    if (done)
      return { status: res.status, type: res.headers.get('content-type'), size, crc: crc >>> 0 }
    size += value.length
    crc = crc32(value, crc)
  }
}

const results = await Promise.all(
  Array.from({ length: Number(readers) }, async () =>
    drain(await fetch(url!, { headers: { cookie: cookie! } })),
  ),
)
process.stdout.write(JSON.stringify(results))
