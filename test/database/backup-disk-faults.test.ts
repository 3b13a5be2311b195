// A disk that fails while a restore or legacy-import file is received (full, over quota): 500 Env
// saying the backup could not be stored, never 400 "Malformed multipart body", and no file left.
// The faults are injected at the received file's writes: a full disk cannot be made unprivileged.
import { describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const MiB = 1024 * 1024

function failWritesAfter(app: TestServer, after: number, code: string) {
  let writes = 0
  app.deps.archives.uploads.stagingWriteFault = () =>
    ++writes > after
      ? Object.assign(new Error(`${code}: disk fault, write`), { code, syscall: 'write' })
      : undefined
}

/** A well-formed body whose file is 4 MiB of a JSON document. */
function bigBackup(): FormData {
  const form = new FormData()
  const doc = JSON.stringify({ archives: [], categories: [], padding: 'x'.repeat(4 * MiB) })
  form.set('file', new File([doc], 'backup.json', { type: 'application/json' }))
  return form
}

const backupFiles = (app: TestServer) =>
  readdirSync(join(app.deps.config.dataDir, 'backups')).filter((name) => name.includes('upload-'))

describe('restore and legacy import on a failing disk', () => {
  it('answer 500 Env naming the fault and leave no file', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    for (const [route, operation] of [
      ['/api/database/restore', 'restore_database'],
      ['/api/database/import-legacy', 'import_legacy'],
    ] as const)
      for (const [code, error] of [
        ['ENOSPC', 'The backup could not be stored: the disk is full.'],
        ['EDQUOT', 'The backup could not be stored: the disk quota is exceeded.'],
      ] as const) {
        failWritesAfter(app, 1, code)
        const res = await app.json(route, { method: 'POST', body: bigBackup(), cookie })
        expect([route, res.status, res.body]).toEqual([
          route,
          500,
          { operation, success: 0, error },
        ])
        expect(backupFiles(app)).toEqual([])
      }
    expect(app.deps.jobs.list().filter((job) => job.name !== 'rescan')).toEqual([])
  })
})
