// A start that cannot create its folders says so in one line on stderr (exit status 1), never the
// source around an uncaught error.
import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')

async function start(dataDir: string, contentDir: string) {
  const proc = Bun.spawn(
    [process.execPath, MAIN, '--port', '0', '--host', '127.0.0.1', '--password', 'x'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        TANKOBUN_DATA_DIR: dataDir,
        TANKOBUN_CONTENT_DIR: contentDir,
      },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { stdout, stderr, code }
}

describe('a start whose folders cannot be created', () => {
  it('prints one line naming the folder and why, and exits 1', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-start-errors-'))
    try {
      const file = join(root, 'a-file')
      writeFileSync(file, 'in the way')
      const data = await start(join(file, 'data'), join(root, 'content'))
      expect(data).toEqual({
        stdout: '',
        stderr: `tankobun: cannot create the data folder ${join(file, 'data')}: a file is in the way (ENOTDIR)\n`,
        code: 1,
      })
      const content = await start(join(root, 'data'), join(file, 'content'))
      expect(content).toEqual({
        stdout: '',
        stderr: `tankobun: cannot create the content folder ${join(file, 'content')}: a file is in the way (ENOTDIR)\n`,
        code: 1,
      })
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
