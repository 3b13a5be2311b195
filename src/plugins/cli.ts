// `npm run plugin -- check <file.ts>` and `npm run plugin -- run <file.ts> [...]`: a plugin author's
// loop, through the real sandbox and the real fetch rules, with no server and no database.
import { basename, dirname, join, resolve } from 'node:path'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createArchiveReader } from '../archive/reader.ts'
import { BUILTIN_PLUGINS_DIR } from '../assets.ts'
import { ConfigError, loadConfig, type Config } from '../config.ts'
import { openDbReadOnly } from '../db/client.ts'
import { findArchive } from '../db/repos/archives.repo.ts'
import { isArchiveId } from '../model/ids.ts'
import { createOutboundFetch } from '../net/fetch.ts'
import { setLogLevel } from '../log.ts'
import { createSandboxHost, type PluginCtx } from './host.ts'
import { ENTRY_OF, checkManifest, type PluginManifest, type PluginRunTag } from './manifest.ts'
import { wrongAnswer } from './answer-check.ts'
import { missingHook } from './hook-check.ts'

const USAGE = `Usage:
  npm run plugin -- check <file.ts>
      reads pluginInfo() in the sandbox, checks it, and type-checks the file against plugins/sdk.d.ts
  npm run plugin -- run <file.ts> [--url URL] [--archive FILE|ID] [--arg name=value]... [--oneshot TEXT]
      runs the plugin's entry for its type and prints its result, its log and its fetches
      --archive  an archive file (cbz, zip, cbr, cb7, tar), or the id of an archive in the server's
                 database (TANKOBUN_DATA_DIR, default ./data): ctx.archive and ctx.entry() read it
      --url      ctx.url (download plugins), also the one-shot argument when --oneshot is absent
  Private hosts (a local test site) need TANKOBUN_FETCH_ALLOW_PRIVATE, as for the server.
`

type FetchLine = { method: string; url: string; status?: number; bytes?: number; ms: number }

function parseArgs(argv: string[]) {
  const [command, file, ...rest] = argv
  const options = { url: undefined as string | undefined, archive: undefined as string | undefined }
  const args: Record<string, string> = {}
  let oneshot: string | null = null
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]
    const value = rest[i + 1]
    if (value === undefined) throw new UsageError(`${flag} needs a value`)
    i++
    if (flag === '--url') options.url = value
    else if (flag === '--archive') options.archive = value
    else if (flag === '--oneshot') oneshot = value
    else if (flag === '--arg') {
      const at = value.indexOf('=')
      if (at <= 0) throw new UsageError(`--arg takes name=value, not ${value}`)
      args[value.slice(0, at)] = value.slice(at + 1)
    } else throw new UsageError(`unknown option ${flag}`)
  }
  if (command !== 'check' && command !== 'run') throw new UsageError('say check or run')
  if (!file) throw new UsageError('name the plugin file')
  return { command, file: resolve(file), options, args, oneshot }
}

class UsageError extends Error {}

/** Type-checks one plugin file against the SDK with the compiler the project ships. */
async function typeCheck(file: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tankobun-plugin-check-'))
  try {
    const config = {
      extends: join(BUILTIN_PLUGINS_DIR, 'tsconfig.json'),
      include: [file, join(BUILTIN_PLUGINS_DIR, 'sdk.d.ts')],
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config))
    const tsc = join(dirname(BUILTIN_PLUGINS_DIR), 'node_modules', '.bin', 'tsc')
    const proc = Bun.spawn([tsc, '--noEmit', '-p', join(dir, 'tsconfig.json')], {
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const out = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text())
    await proc.exited
    return proc.exitCode === 0 ? '' : out.trim()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`plugin: ${error.message}\n\n${USAGE}`)
    return 2
  }
  setLogLevel('error')
  let config: Config
  try {
    config = loadConfig(process.env, [])
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`plugin: ${error.message}\n`)
    return 2
  }
  const fetches: FetchLine[] = []
  const outbound = createOutboundFetch({
    allowPrivate: config.fetchAllowPrivate,
    maxResponseBytes: 32 << 20,
    timeoutMs: 30_000,
  })
  const reader = createArchiveReader({ tempDir: mkdtempSync(join(tmpdir(), 'tankobun-plugin-')) })
  const sandbox = createSandboxHost<PluginRunTag>({
    async fetch(url, init, run) {
      const started = performance.now()
      const line: FetchLine = { method: init.method ?? 'GET', url, ms: 0 }
      fetches.push(line)
      try {
        const res = await outbound.fetchOutbound(url, init, { allowedHosts: run.tag?.hosts ?? [] })
        line.status = res.status
        line.bytes = res.body.length
        return res
      } finally {
        line.ms = Math.round(performance.now() - started)
      }
    },
    entry: async (name, run) =>
      run.tag?.archivePath ? reader.readEntry(run.tag.archivePath, name, 16 << 20) : null,
  })
  try {
    const source = await Bun.file(parsed.file).text()
    const info = await sandbox.run({
      source,
      filename: parsed.file,
      entry: 'pluginInfo',
      ctx: { args: {}, oneshot: null },
    })
    const checked = checkManifest(info.result)
    if (!checked.ok) {
      process.stderr.write(`${parsed.file}: pluginInfo() is not valid: ${checked.reason}\n`)
      return 1
    }
    const manifest = checked.manifest
    const noHook = missingHook(source, manifest.type)
    if (noHook) {
      process.stderr.write(`${parsed.file}: ${noHook}\n`)
      return 1
    }
    if (parsed.command === 'check') {
      const errors = await typeCheck(parsed.file)
      if (errors) {
        process.stderr.write(`${errors}\n`)
        return 1
      }
      process.stdout.write(
        `${basename(parsed.file)}: ${manifest.type} plugin "${manifest.name}" is valid\n`,
      )
      return 0
    }
    const archive = parsed.options.archive
      ? resolveArchive(parsed.options.archive, config)
      : undefined
    return await runOnce(sandbox, parsed, manifest, source, reader, fetches, archive)
  } catch (error) {
    process.stderr.write(`${parsed.file}: ${(error as Error).message}\n`)
    return 1
  } finally {
    await sandbox.close()
    await reader.close()
  }
}

type ArchiveToRun = {
  path: string
  metadata: { arcid: string; title: string; tags: string; summary: string; filename: string }
}

/**
 * `--archive`: a file, or else the id of a catalogued archive, whose stored metadata becomes
 * ctx.archive (read from the server's database without writing to it).
 */
function resolveArchive(value: string, config: Config): ArchiveToRun {
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

async function runOnce(
  sandbox: ReturnType<typeof createSandboxHost<PluginRunTag>>,
  parsed: ReturnType<typeof parseArgs>,
  manifest: PluginManifest,
  source: string,
  reader: ReturnType<typeof createArchiveReader>,
  fetches: FetchLine[],
  archive?: ArchiveToRun,
): Promise<number> {
  const archivePath = archive?.path
  const ctx: PluginCtx = {
    args: parsed.args,
    oneshot: parsed.oneshot ?? parsed.options.url ?? null,
    ...(parsed.options.url ? { url: parsed.options.url } : {}),
  }
  if (archive) {
    const pages = await reader.listPages(archive.path)
    ctx.archive = { ...archive.metadata, pagecount: pages.length }
  }
  const tag: PluginRunTag = {
    namespace: basename(parsed.file, '.ts'),
    ...(manifest.hosts ? { hosts: manifest.hosts } : {}),
    ...(archivePath ? { archivePath } : {}),
  }
  const run = await sandbox
    .run({ source, filename: parsed.file, entry: ENTRY_OF[manifest.type], ctx, tag })
    .catch((error: Error) => ({ error }))
  const out = process.stdout
  // As on the server: an answer the SDK does not declare fails the run.
  const wrong =
    'error' in run ? null : wrongAnswer(manifest.type, ENTRY_OF[manifest.type], run.result)
  if ('error' in run) out.write(`error: ${run.error.message}\n`)
  else if (wrong) out.write(`result:\n${JSON.stringify(run.result, null, 2)}\nerror: ${wrong}\n`)
  else {
    out.write(`result:\n${JSON.stringify(run.result, null, 2)}\n`)
    if (run.logs.length)
      out.write(`log:\n${run.logs.map((l) => `  ${l.level}: ${l.message}`).join('\n')}\n`)
  }
  if (fetches.length) {
    out.write('fetches:\n')
    for (const f of fetches)
      out.write(
        `  ${f.method} ${new URL(f.url).host} ${f.status ?? 'refused'} ${f.bytes ?? 0} B ${f.ms} ms\n`,
      )
  }
  const failed =
    'error' in run ||
    wrong !== null ||
    (typeof run.result === 'object' && run.result !== null && 'error' in run.result)
  return failed ? 1 : 0
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)))
