// One plugin run in one fresh isolate: the globals of the guest prelude (sandbox/guest/, bundled
// into guest.generated.ts), the plugin compiled as an ES module with no imports, the named export
// called with ctx, and the limits that end it.
import ivm from 'isolated-vm'
import * as nodeModule from 'node:module'
import { GUEST_PRELUDE } from './guest.generated.ts'
import { createHostCalls, type HostCalls, type RunBridge } from './host-calls.ts'
import type { ItemOutcome, RunLimits } from './protocol.ts'

export type { GuestFetchInit, GuestFetchResponse, RunBridge } from './host-calls.ts'

/** A result larger than this is refused rather than copied through IPC into the server. */
// 1 MB: the server parses it on its event loop; a metadata answer within the metadata caps is a
// third of that, and no hook needs more.
const MAX_RESULT_CHARS = 1024 * 1024

export type PluginRun = {
  source: string
  typescript?: string
  filename?: string
  entry: string
  ctx: unknown
  limits: RunLimits
}

type StripTypes = (code: string, options: { mode: 'strip' }) => string
const stripTypes = (nodeModule as unknown as { stripTypeScriptTypes?: StripTypes })
  .stripTypeScriptTypes

/** The TypeScript with its types replaced by spaces, so every line and column stays where the
 * author wrote it; undefined when it uses syntax that needs a real transform (enum, namespace). */
function blankTypes(typescript: string | undefined): string | undefined {
  if (typescript === undefined || !stripTypes) return undefined
  try {
    return stripTypes(typescript, { mode: 'strip' })
  } catch {
    return undefined
  }
}

/** A failed run, with a message meant for the plugin's log and the caller. */
export class RunFailure extends Error {}

export async function runPlugin(run: PluginRun, bridge: RunBridge): Promise<unknown> {
  const { memoryMb, wallMs } = run.limits
  const isolate = new ivm.Isolate({ memoryLimit: memoryMb })
  let timedOut = false
  // isolated-vm's timeout covers synchronous code only; code after an await and a promise that
  // never settles are ended here, by disposing the isolate.
  const watchdog = setTimeout(() => {
    timedOut = true
    if (!isolate.isDisposed) isolate.dispose()
  }, wallMs)
  const watch = watchDisposal(isolate)
  const calls = createHostCalls(bridge)
  try {
    const code = blankTypes(run.typescript) ?? run.source
    const context = await isolate.createContext()
    return await Promise.race([runInContext(isolate, context, code, run, calls), watch.disposed])
  } catch (err) {
    throw explain(err, { timedOut, isolate, limits: run.limits, filename: run.filename })
  } finally {
    clearTimeout(watchdog)
    watch.stop()
    calls.release()
    if (!isolate.isDisposed) isolate.dispose()
  }
}

/**
 * How long a call into a just-disposed isolate gets to reject by itself: one cut by the memory
 * limit says so in its error, which must win the race against the plain "disposed" below.
 */
const DISPOSAL_GRACE_MS = 250

/** A promise that rejects once the isolate is disposed (its memory limit, or a watchdog): a
 * pending call into a disposed isolate may never settle by itself. */
function watchDisposal(isolate: ivm.Isolate): { disposed: Promise<never>; stop(): void } {
  let settle!: (err: Error) => void
  const disposed = new Promise<never>((_, reject) => (settle = reject))
  disposed.catch(() => {})
  let grace: ReturnType<typeof setTimeout> | undefined
  const timer = setInterval(() => {
    if (!isolate.isDisposed) return
    clearInterval(timer)
    grace = setTimeout(() => settle(new Error('isolate disposed')), DISPOSAL_GRACE_MS)
  }, 50)
  return {
    disposed,
    stop: () => {
      clearInterval(timer)
      clearTimeout(grace)
    },
  }
}

// The entry runs from a script so its result crosses as one JSON string (functions and other
// uncopyable values are dropped the way JSON.stringify drops them).
const CALL_ENTRY = `
    (async () => {
      const ns = __plugin, name = __entry, ctx = __makeCtx(__ctx), drainLog = __drainLog;
      delete globalThis.__plugin; delete globalThis.__entry; delete globalThis.__ctx; delete globalThis.__makeCtx;
      delete globalThis.__drainLog;
      if (typeof ns[name] !== 'function') throw new Error('the plugin does not export ' + name + '()');
      let result;
      try { result = await ns[name](ctx); } finally { drainLog(); }
      return result === undefined ? 'null' : JSON.stringify(result);
    })()`

/** The host callbacks of one run, as `__host` for the prelude to take. */
async function installHost(context: ivm.Context, calls: HostCalls): Promise<void> {
  await context.eval('globalThis.__host = {}')
  const hostObject = await context.global.get('__host', { reference: true })
  for (const [name, callback] of calls.callbacks) await hostObject.set(name, callback)
  hostObject.release()
}

/** One plugin call in a fresh context: host callbacks, prelude, the plugin module, the entry. */
async function runInContext(
  isolate: ivm.Isolate,
  context: ivm.Context,
  code: string,
  run: Omit<PluginRun, 'source' | 'typescript'>,
  calls: HostCalls,
): Promise<unknown> {
  const timeout = run.limits.syncTimeoutMs
  const jail = context.global
  await installHost(context, calls)
  await context.eval(GUEST_PRELUDE, { timeout })
  const module = await isolate.compileModule(code, { filename: run.filename ?? 'plugin.ts' })
  await module.instantiate(context, refuseImport)
  await module.evaluate({ timeout })
  await jail.set('__plugin', module.namespace.derefInto())
  await jail.set('__ctx', JSON.stringify(run.ctx ?? {}))
  await jail.set('__entry', run.entry)
  const call = await isolate.compileScript(CALL_ENTRY)
  return resultOf(await call.run(context, { timeout, promise: true }))
}

const refuseImport = (specifier: string): ivm.Module => {
  throw new Error(`plugins cannot import modules (${specifier})`)
}

function resultOf(json: unknown): unknown {
  if (typeof json !== 'string') return null
  if (json.length > MAX_RESULT_CHARS)
    throw new RunFailure(`plugin result is larger than ${MAX_RESULT_CHARS / 1024 / 1024} MB`)
  return JSON.parse(json)
}

/**
 * A batch item in its fresh context, every step on the isolate's own thread (the sandbox's main
 * thread stays free for the IPC of the other items) and as few steps as the work allows: each is a
 * hop to that thread and back. The host callbacks go in with one call, the entry call takes the
 * namespace, ctx and entry name as arguments rather than globals.
 */
async function runBatchItem(
  isolate: ivm.Isolate,
  context: ivm.Context,
  code: string,
  run: Omit<PluginRun, 'source' | 'typescript'>,
  calls: HostCalls,
  prelude: ivm.Script,
  modules: ivm.Module[],
): Promise<unknown> {
  const timeout = run.limits.syncTimeoutMs
  const { callbacks } = calls
  await context.evalClosure(
    `globalThis.__host = { ${callbacks.map(([name], i) => `${name}: $${i}`).join(', ')} }`,
    callbacks.map(([, callback]) => callback),
  )
  await prelude.run(context, { timeout })
  // The isolate compiled this source before: V8 answers from its compile cache.
  const module = await isolate.compileModule(code, { filename: run.filename ?? 'plugin.ts' })
  modules.push(module)
  await module.instantiate(context, refuseImport)
  await module.evaluate({ timeout })
  const json = await context.evalClosure(
    `const ns = $0, name = $2, ctx = __makeCtx($1), drainLog = __drainLog;
      delete globalThis.__makeCtx;
      delete globalThis.__drainLog;
      if (typeof ns[name] !== 'function') throw new Error('the plugin does not export ' + name + '()');
      return (async () => {
        let result;
        try { result = await ns[name](ctx); } finally { drainLog(); }
        return result === undefined ? 'null' : JSON.stringify(result);
      })();`,
    [module.namespace.derefInto(), JSON.stringify(run.ctx ?? {}), run.entry],
    { timeout, result: { promise: true } },
  )
  return resultOf(json)
}

export type PluginBatch = Omit<PluginRun, 'ctx'> & { ctxs: unknown[] }

/** How long the isolate's thread may take to answer a no-op before a timed-out item counts as
 * holding it. Other items' synchronous stretches can delay the answer too; then the isolate is
 * disposed and the items in flight run again alone, which is slower but still right. */
const PROBE_MS = 250

/** Whether the isolate's thread takes new work within PROBE_MS (it is not held by running code). */
async function threadIsFree(isolate: ivm.Isolate): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, PROBE_MS, false)))
  const probe = isolate.createContext().then(
    (context) => {
      context.release()
      return true
    },
    () => false,
  )
  try {
    return await Promise.race([probe, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Items in flight in one batch isolate. They share its thread, so more only overlaps their waits
 * on the server (entry reads, fetches). */
const BATCH_IN_FLIGHT = 8
/** A batch isolate is replaced after this many items: each item's module, kept until then, keeps
 * its context (~100 KB), and V8 collects released contexts late anyway; that garbage counts
 * against the memory limit. */
const ITEMS_PER_ISOLATE = 50

/** One isolate of a batch: the prelude compiled once, the plugin compiled once (V8 keeps it in
 * the isolate's compile cache for each item's fresh context). */
type BatchIsolate = {
  isolate: ivm.Isolate
  /** The compiled prelude; rejects when the plugin does not compile. */
  prelude: Promise<ivm.Script>
  /**
   * Every module compiled in the isolate, released only with it. isolated-vm keeps an isolate's
   * modules in a map that is not thread-safe: releasing one on this thread while the isolate's
   * thread compiles another corrupts it, and a native assertion ends the sandbox process.
   */
  modules: ivm.Module[]
  watch: ReturnType<typeof watchDisposal>
  started: number
  inFlight: number
}

/**
 * A plugin over many ctx's: one isolate (the memory limit is the isolate's) and a fresh context
 * per item, so items never see each other's globals; each item has the sync timeout per call and
 * its own wall-clock budget. An item past its budget fails alone, but ending its code means
 * disposing the isolate, as its memory limit does: the other items in flight then are run again,
 * one at a time in a fresh isolate (so the one that killed it is found and fails alone), and the
 * rest go on. Each item is reported once, as it ends.
 */
export async function runBatch(
  batch: PluginBatch,
  bridgeOf: (item: number) => RunBridge,
  report: (item: number, outcome: ItemOutcome) => void,
): Promise<void> {
  const code = blankTypes(batch.typescript) ?? batch.source
  const { limits, filename } = batch
  const queue = batch.ctxs.map((_, item) => ({ item, alone: false }))
  let current: BatchIsolate | undefined

  function retire(target: BatchIsolate): void {
    if (current === target) current = undefined
    if (target.inFlight === 0) {
      target.watch.stop()
      if (!target.isolate.isDisposed) target.isolate.dispose()
      // Their handles go with the isolate: nothing is left in it to corrupt.
      target.modules.length = 0
    }
  }

  function isolateFor(): BatchIsolate {
    if (current && !current.isolate.isDisposed && current.started < ITEMS_PER_ISOLATE)
      return current
    if (current) retire(current)
    const isolate = new ivm.Isolate({ memoryLimit: limits.memoryMb })
    const modules: ivm.Module[] = []
    const prelude = (async () => {
      const script = await isolate.compileScript(GUEST_PRELUDE)
      // Compiled once here: a syntax error fails the batch, and the items hit the cache.
      modules.push(await isolate.compileModule(code, { filename: filename ?? 'plugin.ts' }))
      return script
    })()
    prelude.catch(() => {})
    const watch = watchDisposal(isolate)
    current = { isolate, prelude, modules, watch, started: 0, inFlight: 0 }
    return current
  }

  async function runItem(job: { item: number; alone: boolean }): Promise<void> {
    const target = isolateFor()
    target.started++
    target.inFlight++
    const { isolate } = target
    let timedOut = false
    // Past its budget an item that only waits (a host call, a sleep, a promise that never
    // settles) fails alone: its host answers are held back so its code never runs again, and
    // the isolate goes on. Code holding the isolate's thread can only be ended with the isolate;
    // when others were in flight too, any of them may be the one holding it: all run again, alone.
    let blamed = false
    let abandoned = false
    let abandon!: (err: Error) => void
    const dropped = new Promise<never>((_, reject) => (abandon = reject))
    dropped.catch(() => {})
    const never = new Promise<never>(() => {})
    const hold = <T>(answer: Promise<T>): Promise<T> =>
      answer.then(
        (value) => (abandoned ? never : value),
        (err: unknown) => (abandoned ? never : Promise.reject(err)),
      )
    let settled = false
    const watchdog = setTimeout(async () => {
      if (isolate.isDisposed) return
      const free = await threadIsFree(isolate)
      // It may have ended while the probe waited; then there is nothing to stop.
      if (settled || isolate.isDisposed) return
      timedOut = true
      if (free) {
        abandoned = true
        abandon(new Error('timed out'))
        return
      }
      blamed = job.alone || target.inFlight === 1
      if (!isolate.isDisposed) isolate.dispose()
    }, limits.wallMs)
    let context: ivm.Context | undefined
    const calls = createHostCalls(bridgeOf(job.item), hold)
    try {
      const call = async () => {
        const prelude = await target.prelude
        context = await isolate.createContext()
        const run = { filename, entry: batch.entry, ctx: batch.ctxs[job.item], limits }
        return runBatchItem(isolate, context, code, run, calls, prelude, target.modules)
      }
      const result = await Promise.race([call(), target.watch.disposed, dropped])
      report(job.item, { ok: true, result })
    } catch (err) {
      if (isolate.isDisposed && !blamed && !job.alone) {
        queue.unshift({ item: job.item, alone: true })
        return
      }
      // Alone in an isolate this batch did not end: only its memory limit ends one.
      const failure =
        isolate.isDisposed && !timedOut
          ? new RunFailure(`plugin exceeded its memory limit (${limits.memoryMb} MB)`)
          : explain(err, { timedOut, isolate, limits, filename })
      report(job.item, { ok: false, error: failure.message })
    } finally {
      settled = true
      clearTimeout(watchdog)
      calls.release()
      if (!isolate.isDisposed) context?.release()
      target.inFlight--
      if (target !== current || isolate.isDisposed) retire(target)
    }
  }

  const running = new Set<Promise<void>>()
  let aloneRunning = false
  while (queue.length > 0 || running.size > 0) {
    const next = queue[0]
    const free =
      running.size === 0 || (!aloneRunning && !next?.alone && running.size < BATCH_IN_FLIGHT)
    if (next && free) {
      queue.shift()
      // A compile error is the same for every item: the batch fails as a whole.
      if (current === undefined && running.size === 0 && !next.alone) {
        const first = isolateFor()
        await first.prelude.catch((err) => {
          retire(first)
          throw explain(err, { timedOut: false, isolate: first.isolate, limits, filename })
        })
      }
      aloneRunning = next.alone
      const started = runItem(next).finally(() => running.delete(started))
      running.add(started)
      continue
    }
    await Promise.race(running)
    if (running.size === 0) aloneRunning = false
  }
  if (current) retire(current)
}

/** `30 s`, `1.5 s`, or `300 ms` for a budget under a second (rounding would say 0 s). */
function formatBudget(ms: number): string {
  if (ms < 1000) return `${ms} ms`
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}

function explain(
  err: unknown,
  run: { timedOut: boolean; isolate: ivm.Isolate; limits: RunLimits; filename?: string },
): RunFailure {
  const message = err instanceof Error ? err.message : String(err)
  if (run.timedOut)
    return new RunFailure(`plugin timed out after ${formatBudget(run.limits.wallMs)}`)
  if (/memory limit/i.test(message))
    return new RunFailure(`plugin exceeded its memory limit (${run.limits.memoryMb} MB)`)
  if (/timed out/i.test(message))
    return new RunFailure(`plugin ran longer than ${run.limits.syncTimeoutMs} ms without yielding`)
  if (run.isolate.isDisposed && /disposed/i.test(message))
    return new RunFailure('plugin stopped: its isolate was disposed')
  const line = pluginLine(err, run.filename ?? 'plugin.ts')
  if (line === undefined) return new RunFailure(message)
  const name = err instanceof Error && err.name ? err.name : 'Error'
  return new RunFailure(`${run.filename ?? 'plugin.ts'}:${line}: ${name}: ${message}`)
}

/** The line of the plugin's own file nearest the throw, from the first stack frame (or syntax
 * error location) naming it; the sandbox's frames never reach the message. */
function pluginLine(err: unknown, filename: string): number | undefined {
  const stack = err instanceof Error ? String(err.stack ?? '') : ''
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const match = new RegExp(`${escaped}:(\\d+)`).exec(stack)
  return match ? Number(match[1]) : undefined
}
