// `npm run plugin -- check <file.ts>` and `npm run plugin -- run <file.ts> [...]`: a plugin author's
// loop, through the real sandbox and the real fetch rules, with no server and no database. An entry
// point of its own beside src/main.ts: it builds the config, archive reader, fetch and sandbox host.
import { basename, isAbsolute, join, relative } from 'node:path'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createArchiveReader } from '../archive/reader.ts'
import { ConfigError, loadConfig, type Config } from '../config.ts'
import { createOutboundFetch } from '../net/fetch.ts'
import { setLogLevel } from '../log.ts'
import { wrongAnswer } from '../plugins/answer-check.ts'
import { resolveArchive, type ArchiveToRun } from './archive.ts'
import { parseArgs, UsageError, USAGE, type CliArgs } from './args.ts'
import { syntaxErrors, typeCheck } from './check.ts'
import { missingHook } from '../plugins/hook-check.ts'
import { createSandboxHost, type PluginCtx, type PluginLogLine } from '../plugins/host.ts'
import { withLoginSession } from '../plugins/login-session.ts'
import {
  ENTRY_OF,
  checkManifest,
  type LoginSession,
  type PluginManifest,
  type PluginRunTag,
} from '../plugins/manifest.ts'

type FetchLine = { method: string; url: string; status?: number; bytes?: number; ms: number }
type Sandbox = ReturnType<typeof createSandboxHost<PluginRunTag>>

/** A path as the author typed it: relative to their folder when inside it. */
function shownPath(file: string, cwd: string): string {
  const rel = relative(cwd, file)
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file
}

export async function main(argv: string[]): Promise<number> {
  // npm runs scripts from the repo; INIT_CWD is the folder the author typed the command in.
  const cwd = process.env.INIT_CWD || process.cwd()
  let parsed: CliArgs
  try {
    parsed = parseArgs(argv, cwd)
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
  const shown = shownPath(parsed.file, cwd)
  const fail = (message: string) => {
    process.stderr.write(`${message}\n`)
    return 1
  }
  let source: string
  try {
    source = await Bun.file(parsed.file).text()
  } catch {
    return fail(`${shown}: no such file`)
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
        const res = await outbound.fetchOutbound(url, withLoginSession(url, init, run.tag?.login), {
          allowedHosts: run.tag?.hosts ?? [],
        })
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
    // The parser's errors first, with line and column; `check` goes on to the type checker,
    // which often says more about the same line.
    const syntax = syntaxErrors(source, shown)
    if (syntax.length > 0) {
      if (parsed.command === 'check') syntax.push(...(await typeCheck(parsed.file, shown)))
      return fail(syntax.join('\n'))
    }
    const manifest = await readInfo(sandbox, source, shown)
    if (typeof manifest === 'string') {
      if (parsed.command !== 'check') return fail(manifest)
      return fail([manifest, ...(await typeCheck(parsed.file, shown))].join('\n'))
    }
    const noHook = missingHook(source, manifest.type)
    if (parsed.command === 'check') {
      const errors = [
        ...(noHook ? [`${shown}: ${noHook}`] : []),
        ...(await typeCheck(parsed.file, shown)),
      ]
      if (errors.length > 0) return fail(errors.join('\n'))
      process.stdout.write(`${shown}: ${manifest.type} plugin "${manifest.name}" is valid\n`)
      return 0
    }
    if (noHook) return fail(`${shown}: ${noHook}`)
    const login = parsed.login ? await logIn(sandbox, parsed, cwd) : undefined
    if (typeof login === 'string') return fail(login)
    const archive = parsed.archive ? resolveArchive(parsed.archive, config) : undefined
    return await runOnce(sandbox, parsed, manifest, source, reader, fetches, { archive, login })
  } catch (error) {
    return fail(`${shown}: ${(error as Error).message}`)
  } finally {
    await sandbox.close()
    await reader.close()
  }
}

/** The checked manifest, or what is wrong with it. */
async function readInfo(
  sandbox: Sandbox,
  source: string,
  shown: string,
): Promise<PluginManifest | string> {
  let info: unknown
  try {
    info = (
      await sandbox.run({
        source,
        filename: shown,
        entry: 'pluginInfo',
        ctx: { args: {}, oneshot: null },
      })
    ).result
  } catch (error) {
    // The sandbox's message already names the file and line.
    return (error as Error).message
  }
  const checked = checkManifest(info)
  return checked.ok ? checked.manifest : `${shown}: pluginInfo() is not valid: ${checked.reason}`
}

/** `--login`: the login plugin's execLogin() answer as a session, or why it failed. */
async function logIn(
  sandbox: Sandbox,
  parsed: CliArgs,
  cwd: string,
): Promise<LoginSession | string> {
  const file = parsed.login!
  const shown = shownPath(file, cwd)
  let source: string
  try {
    source = await Bun.file(file).text()
  } catch {
    return `${shown}: no such file`
  }
  const manifest = await readInfo(sandbox, source, shown)
  if (typeof manifest === 'string') return manifest
  if (manifest.type !== 'login')
    return `${shown}: --login takes a login plugin, not a ${manifest.type} one`
  const run = await sandbox
    .run({
      source,
      filename: shown,
      entry: 'execLogin',
      ctx: { args: parsed.loginArgs, oneshot: null },
      tag: { namespace: basename(file, '.ts'), hosts: manifest.hosts ?? [] },
      ...(parsed.timeoutMs ? { limits: { wallMs: parsed.timeoutMs } } : {}),
    })
    .catch((error: Error) => ({ error }))
  if ('error' in run) return `${shown}: login failed: ${run.error.message}`
  const answer = run.result as {
    error?: unknown
    cookies?: LoginSession['cookies']
    headers?: Record<string, string>
  }
  const wrong = wrongAnswer('login', 'execLogin', answer)
  if (wrong) return `${shown}: login failed: ${wrong}`
  if (typeof answer.error === 'string') return `${shown}: login failed: ${answer.error}`
  process.stdout.write(`login: ${shown} answered ${answer.cookies?.length ?? 0} cookies\n`)
  return {
    cookies: (answer.cookies ?? []).map(({ name, value, domain }) => ({
      name,
      value,
      ...(domain ? { domain } : {}),
    })),
    headers: answer.headers ?? {},
    // Sent only to the login plugin's own hosts, as the server sends it.
    hosts: manifest.hosts ?? [],
  }
}

/** A log line as printed: its level (log, info, debug, warn, error) and its message. */
const logLine = (line: PluginLogLine) => `  ${line.level}: ${line.message}`

/** A fetch as printed: method, host and path (the query cut), status, size and time. */
function fetchLine(f: FetchLine): string {
  let where = f.url
  try {
    const url = new URL(f.url)
    where =
      url.host +
      url.pathname +
      (url.search.length > 60 ? url.search.slice(0, 60) + '…' : url.search)
  } catch {
    // Not a URL: the fetch was refused for it; print it as given.
  }
  return `  ${f.method} ${where} ${f.status ?? 'refused'} ${f.bytes ?? 0} B ${f.ms} ms`
}

async function runOnce(
  sandbox: Sandbox,
  parsed: CliArgs,
  manifest: PluginManifest,
  source: string,
  reader: ReturnType<typeof createArchiveReader>,
  fetches: FetchLine[],
  extra: { archive?: ArchiveToRun; login?: LoginSession },
): Promise<number> {
  const { archive, login } = extra
  const ctx: PluginCtx = {
    args: parsed.args,
    oneshot: parsed.oneshot ?? parsed.url ?? null,
    ...(parsed.url ? { url: parsed.url } : {}),
  }
  if (archive) {
    const pages = await reader.listPages(archive.path)
    ctx.archive = { ...archive.metadata, pagecount: pages.length }
  }
  const tag: PluginRunTag = {
    namespace: basename(parsed.file, '.ts'),
    ...(manifest.hosts ? { hosts: manifest.hosts } : {}),
    ...(archive ? { archivePath: archive.path } : {}),
    ...(login ? { login } : {}),
  }
  const run = await sandbox
    .run({
      source,
      filename: shownPath(parsed.file, process.env.INIT_CWD || process.cwd()),
      entry: ENTRY_OF[manifest.type],
      ctx,
      tag,
      ...(parsed.timeoutMs ? { limits: { wallMs: parsed.timeoutMs } } : {}),
    })
    .catch((error: Error & { logs?: PluginLogLine[] }) => ({ error }))
  const out = process.stdout
  // As on the server: an answer the SDK does not declare fails the run.
  const wrong =
    'error' in run ? null : wrongAnswer(manifest.type, ENTRY_OF[manifest.type], run.result)
  if (!('error' in run)) out.write(`result:\n${JSON.stringify(run.result, null, 2)}\n`)
  // The log is printed whether the run failed or not: a failure is when it matters most.
  const logs = 'error' in run ? (run.error.logs ?? []) : run.logs
  if (logs.length) out.write(`log:\n${logs.map(logLine).join('\n')}\n`)
  if (fetches.length) out.write(`fetches:\n${fetches.map(fetchLine).join('\n')}\n`)
  if ('error' in run) out.write(`error: ${run.error.message}\n`)
  else if (wrong) out.write(`error: ${wrong}\n`)
  const failed =
    'error' in run ||
    wrong !== null ||
    (typeof run.result === 'object' && run.result !== null && 'error' in run.result)
  return failed ? 1 : 0
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)))
