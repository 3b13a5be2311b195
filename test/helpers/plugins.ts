// Plugins as a test server finds them: files written where it sideloads them (<data>/plugins/
// custom/<type>/<stem>.ts) before it starts, and the sandbox processes a test's servers spawned.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Writes each source at its path under the sideload folder of the server whose content folder
 * is `contentDir` (`{'metadata/fake.ts': source}`): call from `startTestServer`'s beforeStart.
 */
export function sideload(contentDir: string, plugins: Record<string, string>): void {
  const custom = join(contentDir, '..', 'data', 'plugins', 'custom')
  for (const [path, source] of Object.entries(plugins)) {
    mkdirSync(join(custom, path, '..'), { recursive: true })
    writeFileSync(join(custom, path), source)
  }
}

/** A plugin's `pluginInfo()` export answering `fields` over a test author, description and version. */
export const pluginInfoSource = (fields: Record<string, unknown>): string =>
  `export function pluginInfo() { return ${JSON.stringify({
    author: 'test',
    description: 'a test plugin',
    version: '1.0',
    ...fields,
  })} }\n`

/** Sandbox processes whose parent is `parent`: by default this test process (every in-process
 * test server's), or a child server's pid. */
export function sandboxPids(parent = process.pid): number[] {
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8')
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1])
      if (cmd.includes('sandbox/main.ts') && ppid === parent) pids.push(Number(name))
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids
}
