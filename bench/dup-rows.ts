// What the duplicate scan's first read costs over a catalogue: its slim rows against whole rows.
// Usage: bun bench/dup-rows.ts <path to db.sqlite> (read only). Prints time, rows and heap growth.
import { openDbReadOnly } from '../src/db/client.ts'
import { listArchives, listDuplicateScanRows } from '../src/db/repos/archives.repo.ts'

const path = process.argv[2]
if (!path) throw new Error('usage: bun bench/dup-rows.ts <db.sqlite>')
const db = openDbReadOnly(path)

function measure(name: string, read: () => unknown[]) {
  Bun.gc(true)
  const before = process.memoryUsage().heapUsed
  const start = performance.now()
  const rows = read()
  const ms = performance.now() - start
  Bun.gc(true)
  const heap = (process.memoryUsage().heapUsed - before) / 2 ** 20
  console.log(`${name}: ${rows.length} rows in ${ms.toFixed(0)} ms, heap +${heap.toFixed(0)} MB`)
  return rows.length
}

for (let round = 0; round < 2; round++) {
  measure('whole rows (listArchives)', () => listArchives(db))
  measure('scan rows (listDuplicateScanRows)', () => listDuplicateScanRows(db))
}
