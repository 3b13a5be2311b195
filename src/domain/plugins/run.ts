// Running an installed plugin: its entry for its type, with the archive, saved arguments and
// one-shot argument in ctx, for the run now (use.ts), the plugin_exec job and downloads. A
// metadata run only proposes: nothing is written here.
// Snake_case kept: `new_tags` is the metadata plugin API's answer (LANraragi's plugin contract).
import type { Deps } from '../../deps.ts'
import type { ArchiveReader } from '../../archive/types.ts'
import { AppError, fail } from '../../errors.ts'
import { PluginRunError, type PluginCtx } from '../../plugins/host.ts'
import {
  ENTRY_OF,
  type LoginSession,
  type PluginRunTag,
  type PluginType,
} from '../../plugins/manifest.ts'
import { toAbsolutePath } from '../archives/files.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { maskSecrets } from '../../plugins/mask-secrets.ts'
import { wrongAnswer } from '../../plugins/answer-check.ts'
import { libraryGrant } from './library-grant.ts'
import { runLogOf, runSecrets, type RunLogLine } from './run-log.ts'
import { loginSession } from './login.ts'
import { joinTags, splitTags, tagsMissingFrom } from '../../model/tags.ts'
import {
  MAX_ARCHIVE_TAGS,
  rawTagsOverCap,
  tagsOverCap,
  textOverCap,
} from '../../model/metadata-limits.ts'
import { pluginArgs, pluginTimeoutMs, type InstalledPlugin } from './settings.ts'

/** An archive as a plugin's `ctx.archive` sees it. */
export function pluginArchiveOf(archive: ArchiveRow): NonNullable<PluginCtx['archive']> {
  const { id: arcid, title, tags, summary, filename, pagecount } = archive
  return { arcid, title, tags, summary, filename, pagecount }
}

/** A run's answer: the plugin's data, and the last lines it logged (secrets blanked). */
export type PluginRunAnswer = { type: PluginType; data: Record<string, unknown>; log: RunLogLine[] }

/** A run that failed (a 400, as LANraragi answers it), with the last lines the plugin logged. */
export class PluginFailure extends AppError {
  constructor(
    message: string,
    readonly log: RunLogLine[],
  ) {
    super('bad_request', message)
  }
}

/** `{log}` when the run logged anything, else nothing: a quiet run's answer is LANraragi's. */
export const logField = (log: RunLogLine[]): { log?: RunLogLine[] } =>
  log.length > 0 ? { log } : {}

/** The run log a failure carries, or none. */
export const failureLog = (err: unknown): RunLogLine[] =>
  err instanceof PluginFailure ? err.log : []

/** An archive entry a plugin reads (ComicInfo.xml, a page): past this its read fails. */
const MAX_PLUGIN_ENTRY_BYTES = 16 * 1024 * 1024

/**
 * `ctx.entry(name)` of a run: the bytes of a file of the run's archive, null when it has none (or
 * the run has no archive). A refused read (unsafe name, too large) fails inside the plugin.
 */
export function readPluginEntry(reader: ArchiveReader) {
  return async (name: string, run: { tag?: PluginRunTag }): Promise<Uint8Array | null> => {
    if (!run.tag?.archivePath) return null
    return reader.readEntry(run.tag.archivePath, name, MAX_PLUGIN_ENTRY_BYTES)
  }
}

/** A metadata plugin's tags as one comma-separated string (a list of strings is joined). */
function tagsOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ')
  return typeof value === 'string' ? value : ''
}

/**
 * The tags a metadata answer adds, as LANraragi's `new_tags`: each trimmed, once, and only those
 * the archive does not have yet (compared without case). LANraragi drops a tag found anywhere in
 * the archive's tag string, so `art` goes when `artist:x` is there; here whole tags are compared.
 */
function newTagsOf(value: unknown, archive: ArchiveRow | undefined): string {
  return joinTags(tagsMissingFrom(archive?.tags ?? '', tagsOf(value)))
}

/** Null when a metadata answer fits an archive (model/metadata-limits.ts), else the reason. */
function metadataOverCap(data: Record<string, unknown>): string | null {
  // A list is counted before it is joined (each entry is at least one tag).
  if (Array.isArray(data.tags) && data.tags.length > MAX_ARCHIVE_TAGS)
    return tagsOverCap(data.tags as string[])
  const raw = tagsOf(data.tags)
  return (
    rawTagsOverCap(raw) ??
    tagsOverCap(splitTags(raw)) ??
    textOverCap({
      ...(typeof data.title === 'string' ? { title: data.title.trim() } : {}),
      ...(typeof data.summary === 'string' ? { summary: data.summary } : {}),
    })
  )
}

/** What every run of one plugin shares (its file, saved arguments, limits, login session): read
 * once for a batch of runs. */
export type PreparedPlugin = {
  plugin: InstalledPlugin
  source: string
  args: Record<string, unknown>
  limits: { wallMs: number; memoryMb: number }
  login?: LoginSession
  /** What its runs must not show, in logs and messages alike (runSecrets). */
  secrets: string[]
}

/** What running a plugin needs: the sandbox, its settings and login, and the library it may use. */
export type PluginRunDeps = Pick<
  Deps,
  'config' | 'db' | 'events' | 'plugins' | 'sandbox' | 'search' | 'searchState' | 'settings'
>

export async function preparePlugin(
  deps: PluginRunDeps,
  plugin: InstalledPlugin,
): Promise<PreparedPlugin> {
  // A login plugin's own login_from is not followed: two could name each other.
  const login =
    plugin.info.login_from && plugin.type !== 'login'
      ? await loginSession(deps, plugin.info.login_from)
      : undefined
  const source = await Bun.file(plugin.source)
    .text()
    .catch(() => {
      throw fail.bad_request(`Plugin ${plugin.namespace} cannot be read: its file is gone.`)
    })
  const args = await pluginArgs(deps, plugin)
  return {
    plugin,
    source,
    args,
    secrets: runSecrets(plugin.info, args, login),
    limits: {
      wallMs: pluginTimeoutMs(deps, plugin.namespace),
      memoryMb: deps.settings.get('plugin_memory_mb'),
    },
    ...(login ? { login } : {}),
  }
}

function ctxOf(
  prepared: PreparedPlugin,
  archive: ArchiveRow | undefined,
  oneshot: string | null,
): PluginCtx {
  const { plugin } = prepared
  return {
    args: prepared.args,
    oneshot,
    ...(archive ? { archive: pluginArchiveOf(archive) } : {}),
    ...(plugin.type === 'download' && oneshot ? { url: oneshot } : {}),
    ...(plugin.type === 'script' ? { library: true as const } : {}),
  }
}

function tagOf(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'search' | 'searchState' | 'settings'>,
  prepared: PreparedPlugin,
  archive: ArchiveRow | undefined,
): PluginRunTag {
  const { plugin, login } = prepared
  return {
    namespace: plugin.namespace,
    hosts: plugin.info.hosts ?? [],
    ...(archive ? { archivePath: toAbsolutePath(deps.config.contentDir, archive.path) } : {}),
    ...(login ? { login } : {}),
    ...(plugin.type === 'script' ? { library: libraryGrant(deps) } : {}),
  }
}

/** A run's result with its `{error}` message masked (the answer's error becomes the run's). */
function maskedResult(result: unknown, secrets: readonly string[]): unknown {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return result
  const { error } = result as { error?: unknown }
  return typeof error === 'string' ? { ...result, error: maskSecrets(error, secrets) } : result
}

/** A plugin's answer as an object; an `{error}` answer is a 400 with its message. */
export function pluginDataOf(result: unknown, log: RunLogLine[] = []): Record<string, unknown> {
  const data =
    result !== null && typeof result === 'object' && !Array.isArray(result)
      ? (result as Record<string, unknown>)
      : { result }
  if (typeof data.error === 'string' && data.error) throw new PluginFailure(data.error, log)
  return data
}

/**
 * A login run as answers show it (the run now, a job's result, which guests may list): the names
 * of the cookies and headers it set, never their values, which are the administrator's session.
 */
function loginSummaryOf(data: Record<string, unknown>): Record<string, unknown> {
  const cookies = Array.isArray(data.cookies) ? data.cookies : []
  const headers = data.headers && typeof data.headers === 'object' ? data.headers : {}
  return {
    cookies: cookies.map((cookie) => {
      const { name, domain } = (cookie ?? {}) as Record<string, unknown>
      return { name, ...(domain === undefined ? {} : { domain }) }
    }),
    headers: Object.keys(headers),
  }
}

/**
 * A plugin's answer as the run's data; an `{error}` answer, or one that is not what the SDK
 * declares for its type, is a 400 with its message.
 */
function answerOf(
  plugin: InstalledPlugin,
  result: unknown,
  archive: ArchiveRow | undefined,
  log: RunLogLine[],
): PluginRunAnswer {
  const wrong = wrongAnswer(plugin.type, ENTRY_OF[plugin.type], result)
  if (wrong) throw new PluginFailure(wrong, log)
  const data = pluginDataOf(result, log)
  if (plugin.type === 'login') return { type: plugin.type, data: loginSummaryOf(data), log }
  // A script answers `{ data }`: that is the run's data, as LANraragi answers a script's hash.
  if (plugin.type === 'script')
    return {
      type: plugin.type,
      data: 'data' in data ? (data.data as Record<string, unknown>) : data,
      log,
    }
  if (plugin.type !== 'metadata') return { type: plugin.type, data, log }
  const tooMuch = metadataOverCap(data)
  if (tooMuch) throw new PluginFailure(`execMetadata answered too much metadata: ${tooMuch}.`, log)
  return {
    type: plugin.type,
    log,
    data: {
      new_tags: newTagsOf(data.tags, archive),
      // Trimmed, as LANraragi sends a plugin's title.
      ...(typeof data.title === 'string' ? { title: data.title.trim() } : {}),
      ...(typeof data.summary === 'string' ? { summary: data.summary } : {}),
    },
  }
}

/**
 * One run of an installed plugin as the plugin answered it, before answerOf shapes it (a login
 * run's session is read from this), with its run log. A failing plugin is a 400 with its message;
 * the run's secrets are masked in both.
 */
export async function runPluginRaw(
  deps: PluginRunDeps,
  plugin: InstalledPlugin,
  archive: ArchiveRow | undefined,
  oneshot: string | null,
): Promise<{ result: unknown; log: RunLogLine[] }> {
  const prepared = await preparePlugin(deps, plugin)
  try {
    const out = await deps.sandbox.run({
      source: prepared.source,
      filename: `${plugin.namespace}.ts`,
      entry: ENTRY_OF[plugin.type],
      ctx: ctxOf(prepared, archive, oneshot),
      limits: prepared.limits,
      tag: tagOf(deps, prepared, archive),
    })
    return {
      result: maskedResult(out.result, prepared.secrets),
      log: runLogOf(out.logs, prepared.secrets),
    }
  } catch (err) {
    // A failing plugin is bad input to this request, as LANraragi answers it (400 Env).
    if (err instanceof PluginRunError)
      throw new PluginFailure(
        maskSecrets(err.message, prepared.secrets),
        runLogOf(err.logs, prepared.secrets),
      )
    throw err
  }
}

/**
 * One run of an installed plugin (the run now, the `plugin_exec` job): `archive` is required by a
 * metadata plugin. A plugin naming `login_from` fetches with that login plugin's session. A failing
 * plugin is a 400 with its message.
 */
export async function runPlugin(
  deps: PluginRunDeps,
  plugin: InstalledPlugin,
  archive: ArchiveRow | undefined,
  oneshot: string | null,
): Promise<PluginRunAnswer> {
  const { result, log } = await runPluginRaw(deps, plugin, archive, oneshot)
  return answerOf(plugin, result, archive, log)
}

/** How one archive of a batch ended: the plugin's answer, or why its run failed. */
export type BatchOutcome =
  { ok: true; answer: PluginRunAnswer } | { ok: false; error: string; log: RunLogLine[] }

/**
 * A plugin over many archives as one sandbox batch (Run Automatically): one isolate, the plugin
 * compiled once, a fresh context per archive. `onAnswer` is told of each archive as its run ends
 * (a run's failure fails that archive only). A plugin that cannot be read or compiled throws.
 */
export async function runPluginBatch(
  deps: PluginRunDeps,
  plugin: InstalledPlugin,
  archives: ArchiveRow[],
  onAnswer: (archive: ArchiveRow, outcome: BatchOutcome) => void,
): Promise<void> {
  if (archives.length === 0) return
  const prepared = await preparePlugin(deps, plugin)
  try {
    await deps.sandbox.runBatch(
      {
        source: prepared.source,
        filename: `${plugin.namespace}.ts`,
        entry: ENTRY_OF[plugin.type],
        limits: prepared.limits,
        items: archives.map((archive) => ({
          ctx: ctxOf(prepared, archive, null),
          tag: tagOf(deps, prepared, archive),
        })),
      },
      (index, outcome) => {
        const archive = archives[index]
        if (!archive) return
        const log = runLogOf(outcome.logs, prepared.secrets)
        let answer: BatchOutcome
        try {
          answer = outcome.ok
            ? {
                ok: true,
                answer: answerOf(
                  plugin,
                  maskedResult(outcome.result, prepared.secrets),
                  archive,
                  log,
                ),
              }
            : { ok: false, error: maskSecrets(outcome.error, prepared.secrets), log }
        } catch (err) {
          answer = { ok: false, error: err instanceof Error ? err.message : String(err), log }
        }
        onAnswer(archive, answer)
      },
    )
  } catch (err) {
    if (err instanceof PluginRunError)
      throw fail.bad_request(maskSecrets(err.message, prepared.secrets))
    throw err
  }
}
