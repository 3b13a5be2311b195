// A sandbox process whose server is killed (SIGKILL) while a plugin is busy in synchronous host
// calls (the guest's URL parser is one) exits on its own. Its exit used to run isolated-vm's
// thread-pool destructor, which joined the isolate's thread while that thread waited for the
// main thread to answer its call: the orphan hung for good, holding its memory.
import { describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { spawnServer } from '../helpers/child-server.ts'
import { pluginInfoSource, sandboxPids, sideload } from '../helpers/plugins.ts'
import { until } from '../helpers/until.ts'

const BUSY_PLUGIN =
  pluginInfoSource({ name: 'Busy', type: 'metadata' }) +
  `export async function execMetadata() {
  // Synchronous calls into the sandbox's main thread, back to back, until the run's budget ends.
  for (let i = 0; ; i++) new URL('https://example.com/' + i)
}
`

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** CPU ticks the process has spent (user + system), from /proc. */
const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/** Waits for `check`; says what it waited for when it never held. */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  if (!(await until(check, 30_000, 50))) throw new Error(`still waiting: ${what}`)
}

describe('a sandbox whose server is killed mid-run', () => {
  it('exits even while its plugin is inside synchronous host calls', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-orphan-'))
    const content = join(root, 'content')
    mkdirSync(content, { recursive: true })
    await makeCbz(join(content, 'one.cbz'))
    sideload(content, { 'metadata/busy.ts': BUSY_PLUGIN })
    const child = await spawnServer(root)
    let sandbox: number | undefined
    try {
      const cookie = await child.login()
      const headers = { cookie, 'content-type': 'application/json' }
      const enabled = await fetch(
        `${child.url}/api/plugins/settings?namespace=custom/metadata/busy`,
        {
          method: 'PUT',
          headers,
          body: JSON.stringify({ enabled: true }),
        },
      )
      expect(enabled.status).toBe(200)
      const search = await fetch(`${child.url}/api/search?start=-1`, { headers })
      const id = ((await search.json()) as { data: { arcid: string }[] }).data[0]!.arcid
      const queued = await fetch(
        `${child.url}/api/plugins/queue?plugin=custom/metadata/busy&id=${id}`,
        { method: 'POST', headers },
      )
      expect(queued.status).toBe(200)
      // The run is hot once its sandbox has spent half a second of CPU in the loop.
      await waitFor(() => {
        sandbox = sandboxPids(child.proc.pid).find((pid) => cpuTicks(pid) > 50)
        return sandbox !== undefined
      }, 'the plugin running in its sandbox')
    } finally {
      child.proc.kill('SIGKILL')
      await child.proc.exited
    }
    try {
      await waitFor(
        () => !alive(sandbox!),
        `sandbox ${sandbox} to exit after its server was killed`,
      )
    } finally {
      if (alive(sandbox!)) process.kill(sandbox!, 'SIGKILL')
      rmSync(root, { recursive: true, force: true })
    }
  }, 90_000)
})
