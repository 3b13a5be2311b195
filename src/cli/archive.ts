// `npm run plugin -- run --archive`: the archive a run reads, a file or the id of an archive the
// server has catalogued (its stored metadata read from the database, which is never written).
import { existsSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import type { Config } from '../config.ts'
import { openDbReadOnly } from '../db/client.ts'
import { findArchive } from '../db/repos/archives.repo.ts'
import { isArchiveId } from '../model/ids.ts'

export type ArchiveToRun = {
  path: string
  metadata: { arcid: string; title: string; tags: string; summary: string; filename: string }
}

/**
 * `--archive`: a file, or else the id of a catalogued archive, whose stored metadata becomes
 * ctx.archive (read from the server's database without writing to it).
 */
export function resolveArchive(value: string, config: Config): ArchiveToRun {
  if (existsSync(value) || !isArchiveId(value)) {
    const path = resolve(value)
    const stem = basename(path).replace(/\.[^.]+$/, '')
    return { path, metadata: { arcid: '', title: stem, tags: '', summary: '', filename: stem } }
  }
  if (!existsSync(config.dbPath))
    throw new Error(`no archive file ${value}, and no database at ${config.dbPath} to find it in`)
  const db = openDbReadOnly(config.dbPath)
  try {
    const row = findArchive(db, value)
    if (!row)
      throw new Error(`no archive file ${value}, and no archive with that id in ${config.dbPath}`)
    const { id: arcid, title, tags, summary, filename } = row
    return {
      path: join(config.contentDir, row.path),
      metadata: { arcid, title, tags, summary, filename },
    }
  } finally {
    db.$client.close()
  }
}
