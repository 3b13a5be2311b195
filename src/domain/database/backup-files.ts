// Files under data/backups: the documents backup jobs wrote (GET /api/database/backup/{jobid}) and
// the uploaded files restore and legacy-import jobs read. Each is written to a temp name and
// renamed, so a reader never sees half a file. Not under data/temp: DELETE /api/tempfolder empties
// that, and an upload waiting for its job must survive it.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { couldNotStore } from '../disk-faults.ts'
import type { BackupDocument } from './backup-document.ts'

const log = createLogger('backup')

/** Backup job documents kept; an older job's document is removed when a newer one is written. */
export const KEEP_BACKUP_FILES = 10

const JOB_FILE = /^backup-(\d+)\.json$/
const UPLOAD_FILE = /^upload-[0-9a-f-]{36}\.json$/

export function backupsDir(config: Pick<Deps['config'], 'dataDir'>): string {
  return join(config.dataDir, 'backups')
}

/** Writes a backup job's document; answers its size in bytes. Older job documents are pruned. */
export async function writeBackupJobFile(
  deps: Pick<Deps, 'config'>,
  jobId: number,
  doc: BackupDocument,
): Promise<number> {
  const dir = backupsDir(deps.config)
  mkdirSync(dir, { recursive: true })
  const text = JSON.stringify(doc)
  const temp = join(dir, `.backup-${jobId}.${crypto.randomUUID()}.tmp`)
  try {
    await Bun.write(temp, text)
    renameSync(temp, join(dir, `backup-${jobId}.json`))
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
  pruneBackupJobFiles(dir)
  return Buffer.byteLength(text)
}

function pruneBackupJobFiles(dir: string): void {
  const ids = readdirSync(dir)
    .map((name) => JOB_FILE.exec(name)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(Number)
    .sort((a, b) => b - a)
  for (const id of ids.slice(KEEP_BACKUP_FILES))
    rmSync(join(dir, `backup-${id}.json`), { force: true })
}

/** The file of a finished backup job; 400 when the job is unknown, not a backup or not done. */
export function backupJobFile(deps: Pick<Deps, 'config' | 'jobs'>, rawId: string): string {
  if (!/^\d{1,15}$/.test(rawId)) throw fail.bad_request(`Invalid job id: ${rawId.slice(0, 32)}`)
  const job = deps.jobs.get(Number(rawId))
  if (!job || job.name !== 'backup') throw fail.bad_request(`No backup job with id ${rawId}.`)
  if (job.state !== 'finished')
    throw fail.bad_request(`The backup job ${rawId} is not complete (${job.state}).`)
  const path = join(backupsDir(deps.config), `backup-${job.id}.json`)
  try {
    statSync(path)
  } catch {
    throw fail.bad_request(`The backup of job ${rawId} is no longer kept; run a new backup.`)
  }
  return path
}

/** An upload no live job names is left over once it is this old (a job cut by a crash). */
const ORPHAN_UPLOAD_MS = 60 * 60 * 1000

/**
 * Removes uploads that no queued or active restore or import names and that are older than an
 * hour (a younger one may belong to a request that has not queued its job yet).
 */
function sweepOrphanUploads(deps: Pick<Deps, 'jobs'>, dir: string): void {
  const live = new Set<string>()
  for (const job of deps.jobs.list())
    if (job.state === 'queued' || job.state === 'active') {
      const upload = (JSON.parse(job.args) as { upload?: unknown }).upload
      if (typeof upload === 'string') live.add(upload)
    }
  for (const name of readdirSync(dir)) {
    if (!UPLOAD_FILE.test(name) || live.has(name)) continue
    const path = join(dir, name)
    try {
      if (Date.now() - statSync(path).mtimeMs > ORPHAN_UPLOAD_MS) rmSync(path, { force: true })
    } catch (error) {
      log.warn('could not sweep an old backup upload', {
        error: error instanceof Error ? error.message : String(error),
      })
    }
  }
}

/**
 * Streams an uploaded backup file to data/backups under a fresh name and answers that name (job
 * arguments carry the name, never a server path). What it wrote is removed when the read fails.
 * Uploads left behind by jobs a crash cut short are swept first.
 */
export async function receiveBackupUpload(
  deps: Pick<Deps, 'config' | 'jobs' | 'archives'>,
  content: AsyncIterable<Uint8Array>,
): Promise<string> {
  const dir = backupsDir(deps.config)
  mkdirSync(dir, { recursive: true })
  sweepOrphanUploads(deps, dir)
  const name = `upload-${crypto.randomUUID()}.json`
  const temp = join(dir, `.${name}.tmp`)
  // The disk's faults become a 500 naming them (a full disk is not a malformed body); a failure
  // of `content` (the client went away) is rethrown as it is.
  const stored = <T>(write: Promise<T>) =>
    write.catch((error: unknown) => {
      throw couldNotStore('backup', error, log)
    })
  const file = await stored(open(temp, 'w'))
  try {
    for await (const chunk of content) {
      const fault = deps.archives.uploads.stagingWriteFault?.()
      await stored(fault ? Promise.reject(fault) : file.write(chunk))
    }
    // Closing flushes: it can fail on a full disk as a write can.
    await stored(file.close())
    renameSync(temp, join(dir, name))
  } catch (error) {
    await file.close().catch(() => undefined)
    rmSync(temp, { force: true })
    throw error
  }
  return name
}

/** The text of an uploaded backup, as UTF-8; 400 when it is gone or not UTF-8. */
export async function readBackupUpload(deps: Pick<Deps, 'config'>, name: string): Promise<string> {
  if (!UPLOAD_FILE.test(name)) throw fail.bad_request('Invalid backup upload.')
  const bytes = await Bun.file(join(backupsDir(deps.config), name))
    .bytes()
    .catch(() => {
      throw fail.bad_request('The uploaded backup file is gone.')
    })
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw fail.bad_request('Invalid backup: the file is not UTF-8 text.')
  }
}

export function removeBackupUpload(deps: Pick<Deps, 'config'>, name: string): void {
  if (!UPLOAD_FILE.test(name)) return
  try {
    rmSync(join(backupsDir(deps.config), name), { force: true })
  } catch (error) {
    log.warn('could not remove an uploaded backup', {
      error: error instanceof Error ? error.message : String(error),
    })
  }
}
