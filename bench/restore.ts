// How long a restore takes and holds the server's thread: N generated archives are written to a
// fresh library, backed up, given one more tag each, and restored in-process (one transaction,
// then the search index's updates a slice at a time, as the restore job runs it). Prints the
// write time, the restore time and the longest event-loop stall.
// Usage: bun bench/restore.ts [archives=10000] [categories=0] (each category lists 5 archives)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { tx } from '../src/db/client.ts'
import { insertArchive } from '../src/db/repos/archives.repo.ts'
import { buildBackupDocument } from '../src/domain/database/backup-document.ts'
import { restoreBackupDocument } from '../src/domain/database/restore.ts'
import { benchConfig } from './bench-server.ts'
import { createCatalogue } from './catalogue.ts'

const count = Number(process.argv[2] ?? 10_000)
const categoryCount = Number(process.argv[3] ?? 0)
const root = mkdtempSync(join(tmpdir(), 'tankobun-restore-'))
const server = await startServer({ ...benchConfig(root), watch: false })
try {
  // The boot scan of the empty content folder would hide rows written before it ends.
  await Bun.sleep(500)
  const catalogue = createCatalogue()
  const written = performance.now()
  tx(server.deps.db, () => {
    for (let i = 0; i < count; i++) {
      const archive = catalogue.archive(i)
      const id = i.toString(16).padStart(40, '0')
      insertArchive(
        server.deps.db,
        {
          id,
          path: `generated/${id}.cbz`,
          filename: `file ${i}`,
          extension: 'cbz',
          title: archive.title,
          tags: archive.tags.join(', '),
          pagecount: archive.pagecount,
          createdAt: 1,
        },
        ['001.jpg'],
      )
    }
  })
  console.log(`wrote ${count} rows in ${(performance.now() - written).toFixed(0)} ms`)

  const doc = buildBackupDocument(server.deps.db)
  for (const record of doc.archives) record.tags = `${record.tags}, restored:yes`
  for (let i = 0; i < categoryCount; i++)
    doc.categories.push({
      catid: `SET_${1700000000 + i}`,
      name: `Category ${i}`,
      search: '',
      archives: doc.archives.slice(i % count, (i % count) + 5).map((a) => a.arcid),
    })
  let stall = 0
  let last = performance.now()
  const ticker = setInterval(() => {
    const now = performance.now()
    stall = Math.max(stall, now - last)
    last = now
  }, 5)
  await Bun.sleep(20)
  const started = performance.now()
  const result = await restoreBackupDocument(server.deps, doc)
  const ms = performance.now() - started
  await Bun.sleep(20)
  clearInterval(ticker)
  console.log(
    `restored ${result.updated} of ${count} archives, ${result.categories_created} categories ` +
      `in ${ms.toFixed(0)} ms ` +
      `(${((ms * 1000) / count).toFixed(0)} us each); longest stall ${stall.toFixed(0)} ms`,
  )
} finally {
  await server.stop()
  rmSync(root, { recursive: true, force: true })
}
