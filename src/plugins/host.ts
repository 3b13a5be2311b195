// Drives the plugin sandbox (a Node 24 child process running isolated-vm): starts it on the first
// run, answers its fetch and archive-entry calls through injected functions, fails a run's caller
// when the process dies or stops answering, and starts a fresh process for the next run.
import type {
  HostMessage,
  ItemOutcome,
  LogLevel,
  RunLimits,
  SandboxMessage,
  WireFetchInit,
} from '../../sandbox/protocol.ts'
import { SANDBOX_MAIN_PATH, SANDBOX_NODE_PATH } from '../assets.ts'
import { AppError } from '../errors.ts'
import { createSandboxBytes } from './sandbox-bytes.ts'
import { createSandboxPool } from './sandbox-pool.ts'
import type { InFlight, SandboxProcess } from './sandbox-process.ts'

export const DEFAULT_PLUGIN_LIMITS: RunLimits = {
  memoryMb: 64,
  syncTimeoutMs: 5_000,
  wallMs: 30_000,
}
/** How long past a run's own wall clock the host waits before it gives up on the process. */
const HOST_GRACE_MS = 5_000
/** A plugin logging in a loop must not grow the server's memory without bound. */
const MAX_LOG_LINES = 500
const MAX_LOG_LINE_CHARS = 4_000

export type PluginEntry = 'pluginInfo' | 'execMetadata' | 'execLogin' | 'execDownload' | 'runScript'

/** The JSON part of a plugin's ctx; `entry(name)` is added inside the sandbox. */
export type PluginCtx = {
  archive?: {
    arcid: string
    title: string
    tags: string
    summary: string
    filename: string
    pagecount: number
  }
  args: Record<string, unknown>
  oneshot: string | null
  url?: string
  /** Script plugins: true gives the run `ctx.library` (answered by the host's `library`). */
  library?: true
}

export type PluginFetchInit = {
  method?: string
  headers?: [string, string][]
  body?: Uint8Array<ArrayBuffer>
  /**
   * Where the response body goes as it arrives (then the answer's `body` is empty); a fetch that
   * ignores it answers the whole body instead.
   */
  sink?: (chunk: Uint8Array) => Promise<void>
}
export type PluginFetchResponse = {
  status: number
  headers: Headers | [string, string][] | Record<string, string>
  url: string
  body: Uint8Array
}

export type PluginRunRequest<Tag = unknown> = {
  /** The plugin file's source: TypeScript (transpiled here) or plain JavaScript. */
  source: string
  entry: PluginEntry
  ctx: PluginCtx
  limits?: Partial<RunLimits>
  /** The plugin's file as its errors name it (`metadata/foo.ts`); `plugin.ts` when absent. */
  filename?: string
  /** Passed back to fetch, entry and log (e.g. the plugin's namespace and allowed hosts). */
  tag?: Tag
  /**
   * Which sandbox process runs it: runs of one key share one, and a crash takes only that
   * process's runs. Defaults to the filename (one process per plugin). A run on a shared key
   * that a crash ended is tried once more on its filename's own process.
   */
  isolation?: string
}

export type PluginLogLine = { level: LogLevel; message: string }
export type PluginFetchRecord = { method: string; url: string; status?: number; error?: string }
export type PluginRunResult = {
  result: unknown
  logs: PluginLogLine[]
  fetches: PluginFetchRecord[]
}

/** What the outside world looks like to a run; `run` says which run asks. */
export type SandboxHostOptions<Tag = unknown> = {
  fetch(
    url: string,
    init: PluginFetchInit,
    run: PluginRunRequest<Tag>,
  ): Promise<PluginFetchResponse>
  entry?(name: string, run: PluginRunRequest<Tag>): Promise<Uint8Array | null>
  /** A script plugin's `ctx.library` call; a thrown error fails that call inside the plugin. */
  library?(method: string, args: unknown[], run: PluginRunRequest<Tag>): Promise<unknown>
  log?(line: PluginLogLine, run: PluginRunRequest<Tag>): void
  /** Defaults to the bundled Node 24 and sandbox entry (tests point them elsewhere). */
  nodePath?: string
  mainPath?: string
}

/** One plugin over many ctx's (Run Automatically over a batch of archives). */
export type PluginBatchRequest<Tag = unknown> = Omit<PluginRunRequest<Tag>, 'ctx' | 'tag'> & {
  /** One per run; each is seen by fetch, entry and log as that run's ctx and tag. */
  items: { ctx: PluginCtx; tag?: Tag }[]
}

/** How one item of a batch ended, with what it logged and fetched. */
export type PluginItemOutcome = ({ ok: true; result: unknown } | { ok: false; error: string }) & {
  logs: PluginLogLine[]
  fetches: PluginFetchRecord[]
}

export type SandboxHost<Tag = unknown> = {
  run(request: PluginRunRequest<Tag>): Promise<PluginRunResult>
  /**
   * Runs the plugin once per item in one sandbox isolate (a fresh context per item, the memory
   * limit per isolate, the sync timeout and wall clock per item). `onItem` is told of each item
   * as it ends, exactly once, in no set order; the promise resolves after the last one.
   */
  runBatch(
    request: PluginBatchRequest<Tag>,
    onItem: (index: number, outcome: PluginItemOutcome) => void,
  ): Promise<void>
  close(): Promise<void>
}

/** A failed run keeps what the plugin logged and fetched before it failed. */
export class PluginRunError extends AppError {
  constructor(
    message: string,
    readonly logs: PluginLogLine[],
    readonly fetches: PluginFetchRecord[],
  ) {
    super('unprocessable', message)
  }
}

/** One run as the host's callbacks see it: a single run, or one item of a batch. */
type RunState<Tag> = {
  request: PluginRunRequest<Tag>
  logs: PluginLogLine[]
  fetches: PluginFetchRecord[]
}
/** A run or batch in flight, as the bridge answers its sandbox messages. */
type Pending<Tag> = {
  /** One for a run; one per item for a batch (sandbox messages name the item). */
  runs: RunState<Tag>[]
  /** A batch item ended (batches only). */
  item?(index: number, outcome: ItemOutcome): void
  done(message: Extract<SandboxMessage, { type: 'sandbox:done' }>): void
  /** The process died or stopped answering. */
  fail(message: string): void
  /** How long the process may stay silent on this run before it is given up. */
  silenceMs: number
}

/** The failure of a run whose process died under it (not the run's own failure). */
class SandboxDied extends PluginRunError {}

// Bun's transpiler would otherwise write its own NODE_ENV into the plugin. (It also folds
// `typeof require` to "function"; calling require still fails inside the isolate.)
const transpiler = new Bun.Transpiler({
  loader: 'ts',
  define: { 'process.env.NODE_ENV': 'process.env.NODE_ENV' },
})

function headerPairs(headers: PluginFetchResponse['headers']): [string, string][] {
  if (Array.isArray(headers)) return headers.map(([k, v]) => [String(k), String(v)])
  if (headers instanceof Headers) return [...headers.entries()]
  return Object.entries(headers).map(([k, v]) => [k, String(v)])
}

export function createSandboxHost<Tag = unknown>(
  options: SandboxHostOptions<Tag>,
): SandboxHost<Tag> {
  const pool = createSandboxPool({
    nodePath: options.nodePath ?? SANDBOX_NODE_PATH,
    mainPath: options.mainPath ?? SANDBOX_MAIN_PATH,
  })
  const bytes = createSandboxBytes()
  let nextId = 1
  let closed = false

  function reply(target: SandboxProcess, message: HostMessage): void {
    target.send(message)
  }

  function answer(target: SandboxProcess, call: Pending<Tag>, message: SandboxMessage): void {
    if (message.type === 'sandbox:ready' || message.type === 'sandbox:spent') return
    if (message.type === 'sandbox:done') {
      call.done(message)
      return
    }
    if (message.type === 'sandbox:item') {
      call.item?.(message.item, message)
      return
    }
    const run = call.runs[message.item ?? 0]
    if (!run) return
    switch (message.type) {
      case 'sandbox:log': {
        if (run.logs.length >= MAX_LOG_LINES) return
        const line: PluginLogLine = {
          level: message.level,
          message:
            run.logs.length === MAX_LOG_LINES - 1
              ? '(further log lines dropped)'
              : String(message.message).slice(0, MAX_LOG_LINE_CHARS),
        }
        run.logs.push(line)
        options.log?.(line, run.request)
        return
      }
      case 'sandbox:fetch':
        void bridgeFetch(target, run, message)
        return
      case 'sandbox:entry':
        void bridgeEntry(target, run, message)
        return
      case 'sandbox:library':
        void bridgeLibrary(target, run, message)
        return
    }
  }

  async function bridgeFetch(
    target: SandboxProcess,
    call: RunState<Tag>,
    message: Extract<SandboxMessage, { type: 'sandbox:fetch' }>,
  ): Promise<void> {
    const { id, url } = message
    const wire: WireFetchInit = message.init ?? {}
    const record: PluginFetchRecord = { method: wire.method ?? 'GET', url }
    call.fetches.push(record)
    const spool = bytes.spool()
    try {
      const init: PluginFetchInit = {
        method: wire.method,
        headers: wire.headers,
        body:
          wire.body64 === undefined
            ? undefined
            : new Uint8Array(Buffer.from(wire.body64, 'base64')),
        sink: spool.write,
      }
      const response = await options.fetch(url, init, call.request)
      record.status = response.status
      reply(target, {
        type: 'host:fetch-result',
        id,
        call: message.call,
        response: {
          status: response.status,
          headers: headerPairs(response.headers),
          url: response.url,
          ...(await spool.finish(response.body)),
        },
      })
    } catch (err) {
      await spool.abort()
      record.error = (err as Error)?.message ?? String(err)
      reply(target, { type: 'host:fetch-result', id, call: message.call, error: record.error })
    }
  }

  async function bridgeEntry(
    target: SandboxProcess,
    call: RunState<Tag>,
    message: Extract<SandboxMessage, { type: 'sandbox:entry' }>,
  ): Promise<void> {
    const { id } = message
    try {
      if (!options.entry) throw new Error('this run has no archive entries')
      const found = await options.entry(message.name, call.request)
      reply(target, {
        type: 'host:entry-result',
        id,
        call: message.call,
        bytes: found ? await bytes.wire(found) : null,
      })
    } catch (err) {
      const error = (err as Error)?.message ?? String(err)
      reply(target, { type: 'host:entry-result', id, call: message.call, error })
    }
  }

  async function bridgeLibrary(
    target: SandboxProcess,
    call: RunState<Tag>,
    message: Extract<SandboxMessage, { type: 'sandbox:library' }>,
  ): Promise<void> {
    const { id } = message
    try {
      if (!options.library || call.request.ctx.library !== true)
        throw new Error('ctx.library is given to script plugins only')
      const args: unknown = JSON.parse(message.args)
      if (!Array.isArray(args)) throw new Error('library arguments must be a list')
      const result = await options.library(message.method, args, call.request)
      reply(target, {
        type: 'host:library-result',
        id,
        call: message.call,
        json: JSON.stringify(result ?? null),
      })
    } catch (err) {
      const error = (err as Error)?.message ?? String(err)
      reply(target, { type: 'host:library-result', id, call: message.call, error })
    }
  }

  /** Plain JavaScript for the sandbox; a syntax error names the plugin's file and line. */
  function transpile(request: { source: string; filename?: string }): string {
    const filename = request.filename ?? 'plugin.ts'
    try {
      return transpiler.transformSync(request.source)
    } catch (err) {
      const line = (err as { position?: { line?: number } }).position?.line
      const where = line ? `${filename}:${line}: ` : `${filename}: `
      throw new PluginRunError(
        `${where}plugin does not compile: SyntaxError: ${(err as Error).message}`,
        [],
        [],
      )
    }
  }

  /** The process of `key`, ready; a sandbox that cannot start fails the run clearly. */
  async function ready(key: string): Promise<SandboxProcess> {
    if (closed) throw new AppError('internal', 'plugin sandbox is closed')
    try {
      return await pool.acquire(key)
    } catch (err) {
      if (err instanceof AppError) throw err
      throw new PluginRunError((err as Error).message, [], [])
    }
  }

  /**
   * Sends a run or batch on the process of `key` and keeps its callbacks until the sandbox says
   * it is done, goes silent past `silenceMs` (then the process is given up) or dies.
   */
  async function dispatch(
    key: string,
    pending: Pending<Tag>,
    message: HostMessage & { id: number },
  ): Promise<void> {
    const target = await ready(key)
    const id = message.id
    const end = () => {
      const call = target.pending.get(id)
      if (!call) return false
      clearTimeout(call.timer)
      target.pending.delete(id)
      pool.ended(target)
      return true
    }
    const inFlight: InFlight = {
      message(sandboxMessage) {
        // A batch is given up only when the sandbox goes silent on it, not after a set time.
        if (pending.item) inFlight.timer.refresh()
        if (sandboxMessage.type === 'sandbox:done' && !end()) return
        answer(target, pending, sandboxMessage)
      },
      fail(why) {
        pending.fail(why)
      },
      timer: setTimeout(
        () => target.bury(`did not answer within ${pending.silenceMs} ms`),
        pending.silenceMs,
      ),
    }
    target.pending.set(id, inFlight)
    pool.settle(target)
    reply(target, message)
  }

  /** A run, tried once more on its own process when a crash of a shared one ended it. */
  async function runOnce(request: PluginRunRequest<Tag>, key: string): Promise<PluginRunResult> {
    const filename = request.filename ?? 'plugin.ts'
    const source = transpile(request)
    const limits: RunLimits = { ...DEFAULT_PLUGIN_LIMITS, ...request.limits }
    const id = nextId++
    const state: RunState<Tag> = { request, logs: [], fetches: [] }
    return new Promise<PluginRunResult>((resolve, reject) => {
      dispatch(
        key,
        {
          runs: [state],
          silenceMs: limits.wallMs + HOST_GRACE_MS,
          done(message) {
            if (message.ok)
              resolve({ result: message.result, logs: state.logs, fetches: state.fetches })
            else reject(new PluginRunError(message.error, state.logs, state.fetches))
          },
          fail: (why) => reject(new SandboxDied(why, state.logs, state.fetches)),
        },
        {
          type: 'host:run',
          id,
          source,
          typescript: request.source,
          filename,
          entry: request.entry,
          ctx: request.ctx,
          limits,
        },
      ).catch(reject)
    })
  }

  return {
    async run(request) {
      const own = request.filename ?? 'plugin.ts'
      const key = request.isolation ?? own
      try {
        return await runOnce(request, key)
      } catch (err) {
        if (!(err instanceof SandboxDied) || key === own || closed) throw err
        return runOnce(request, own)
      }
    },

    async runBatch(request, onItem) {
      if (request.items.length === 0) return
      const filename = request.filename ?? 'plugin.ts'
      const source = transpile(request)
      const limits: RunLimits = { ...DEFAULT_PLUGIN_LIMITS, ...request.limits }
      const id = nextId++
      const runs: RunState<Tag>[] = request.items.map(({ ctx, tag }) => ({
        request: { ...request, ctx, tag },
        logs: [],
        fetches: [],
      }))
      const reported = new Set<number>()
      const tell = (index: number, outcome: ItemOutcome) => {
        const run = runs[index]
        if (!run || reported.has(index)) return
        reported.add(index)
        onItem(index, { ...outcome, logs: run.logs, fetches: run.fetches })
      }
      // Items the sandbox never answered (it died, or the batch failed as a whole) fail with why.
      const failRest = (error: string) => {
        for (let index = 0; index < runs.length; index++) tell(index, { ok: false, error })
      }
      return new Promise<void>((resolve, reject) => {
        dispatch(
          request.isolation ?? filename,
          {
            runs,
            // An item may wait out another's budget, then run again alone with its own.
            silenceMs: 2 * limits.wallMs + HOST_GRACE_MS,
            item: tell,
            done(message) {
              failRest(message.ok ? 'plugin sandbox did not answer this run' : message.error)
              resolve()
            },
            fail(why) {
              failRest(why)
              resolve()
            },
          },
          {
            type: 'host:batch',
            id,
            source,
            typescript: request.source,
            filename,
            entry: request.entry,
            ctxs: request.items.map((item) => item.ctx),
            limits,
          },
        ).catch(reject)
      })
    },
    async close() {
      closed = true
      pool.close()
      bytes.close()
    },
  }
}
