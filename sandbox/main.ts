// The sandbox process: started by the server with Node 24 and an IPC channel, it runs each
// 'host:run' in its own isolate and forwards the run's fetch, entry, library and log calls to the
// server.
import { RunFailure, runBatch, runPlugin, type RunBridge } from './isolate.ts'
import { readdirSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { setPriority } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { HostMessage, SandboxMessage, WireBytes, WireFetchResponse } from './protocol.ts'

type Waiting = { resolve(message: HostMessage): void; reject(err: Error): void }

/** Bridged calls awaiting the server's answer, by run id then call id. */
const waiting = new Map<number, Map<number, Waiting>>()
let nextCall = 1
const MAX_LOG_LINES = 1_000
const MAX_LOG_LINE_CHARS = 4_000

function send(message: SandboxMessage): void {
  process.send?.(message)
}

const toBase64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
/** The host's bytes: decoded into a Buffer of its own (large ones never come from the shared
 * pool), or read from the file the host wrote, which is removed once read. */
async function bytesOf(wire: WireBytes): Promise<Uint8Array> {
  if ('body64' in wire) return Buffer.from(wire.body64, 'base64')
  try {
    return await readFile(wire.bodyFile)
  } finally {
    await rm(wire.bodyFile, { force: true })
  }
}

function ask(id: number, build: (call: number) => SandboxMessage): Promise<HostMessage> {
  const calls = waiting.get(id)
  if (!calls) return Promise.reject(new Error('the run has ended'))
  const call = nextCall++
  return new Promise((resolve, reject) => {
    calls.set(call, { resolve, reject })
    send(build(call))
  })
}

/** The bridge of run `id`, or of one item of batch `id`. */
function bridgeFor(id: number, item?: number): RunBridge {
  let logged = 0
  return {
    async fetch(url, init) {
      const answer = await ask(id, (call) => ({
        type: 'sandbox:fetch',
        id,
        item,
        call,
        url,
        init: {
          method: init.method,
          headers: init.headers,
          body64: init.body ? toBase64(init.body) : undefined,
        },
      }))
      if (answer.type !== 'host:fetch-result' || !answer.response)
        throw new Error(answer.type === 'host:fetch-result' ? answer.error : 'fetch failed')
      const response: WireFetchResponse = answer.response
      const { status, headers, url: finalUrl } = response
      return { status, headers, url: finalUrl, body: await bytesOf(response) }
    },
    async entry(name) {
      const answer = await ask(id, (call) => ({ type: 'sandbox:entry', id, item, call, name }))
      if (answer.type !== 'host:entry-result' || answer.error !== undefined)
        throw new Error(answer.type === 'host:entry-result' ? answer.error : 'entry failed')
      return answer.bytes == null ? null : bytesOf(answer.bytes)
    },
    async library(method, args) {
      const answer = await ask(id, (call) => ({
        type: 'sandbox:library',
        id,
        item,
        call,
        method,
        args,
      }))
      if (answer.type !== 'host:library-result' || answer.error !== undefined)
        throw new Error(answer.type === 'host:library-result' ? answer.error : 'library failed')
      return answer.json ?? 'null'
    },
    log(level, message) {
      // A plugin logging in a loop must not flood the channel; the host keeps fewer still.
      if (++logged > MAX_LOG_LINES) return
      send({ type: 'sandbox:log', id, item, level, message: message.slice(0, MAX_LOG_LINE_CHARS) })
    },
  }
}

/** How much less CPU the sandbox asks for than the server (nice 10: ~1/10 of its share). */
const NICENESS = 10

/**
 * Plugins yield the machine to the server: on a 2-core box six plugins looping for their 5 s
 * would otherwise take the cores from every request. Linux keeps a nice value per thread and a
 * new thread takes its creator's, so every thread there is now is lowered, and the isolates'
 * threads, made later, follow.
 */
function lowerPriority(): void {
  let tasks: string[] = []
  try {
    tasks = readdirSync('/proc/self/task')
  } catch {
    // Not Linux: the process as a whole.
    tasks = ['0']
  }
  for (const tid of tasks)
    try {
      setPriority(Number(tid), NICENESS)
    } catch {
      // A thread that ended meanwhile, or a system that refuses: plugins then share the CPU evenly.
    }
}

/** Above its idle size by more than this after a collection, the process asks to be replaced. */
const SPENT_MARGIN_BYTES = 24 * 1024 * 1024
/** The process's size once started and collected: its idle figure. */
let idleRss = 0

/**
 * V8's collector, taken for this process alone: with --expose-gc on the command line every
 * context V8 makes would get a `gc` global, plugin contexts included (and not deletable there).
 * The flag is on only while one private context is made.
 */
const collectGarbage = (() => {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  setFlagsFromString('--no-expose-gc')
  return gc
})()

function collect(): number {
  collectGarbage()
  return process.memoryUsage.rss()
}

/**
 * Idle this long before collecting: a full collection takes ~8 ms, and runs one after another
 * (a client calling a plugin in a loop) must not each wait behind one.
 */
const IDLE_BEFORE_COLLECTING_MS = 500
let idleCollection: ReturnType<typeof setTimeout> | undefined

/**
 * Gives a run's memory back once nothing runs for a moment. A disposed isolate's heap goes at once, but what a
 * run passed through this process (bodies, messages, pending calls) stays until V8 collects, and
 * the heap and the allocator keep their grown size for long: a process still well above its idle
 * figure after a collection asks the host to replace it (the host does once it is idle).
 */
function collectWhenIdle(): void {
  clearTimeout(idleCollection)
  idleCollection = setTimeout(() => {
    if (waiting.size > 0) return
    const rss = collect()
    if (rss > idleRss + SPENT_MARGIN_BYTES) send({ type: 'sandbox:spent' })
  }, IDLE_BEFORE_COLLECTING_MS)
}

/**
 * Runs one request's work and always ends it: `sandbox:done` with the result or the failure, and
 * every host call still pending for it rejected.
 */
async function serve(id: number, work: () => Promise<unknown>): Promise<void> {
  waiting.set(id, new Map())
  try {
    send({ type: 'sandbox:done', id, ok: true, result: await work() })
  } catch (err) {
    const error = err instanceof RunFailure || err instanceof Error ? err.message : String(err)
    send({ type: 'sandbox:done', id, ok: false, error })
  } finally {
    for (const call of waiting.get(id)?.values() ?? []) call.reject(new Error('the run has ended'))
    waiting.delete(id)
    if (waiting.size === 0) collectWhenIdle()
  }
}

function run(message: Extract<HostMessage, { type: 'host:run' }>): Promise<void> {
  return serve(message.id, () => runPlugin(message, bridgeFor(message.id)))
}

function batch(message: Extract<HostMessage, { type: 'host:batch' }>): Promise<void> {
  const { id } = message
  return serve(id, async () => {
    await runBatch(
      message,
      (item) => bridgeFor(id, item),
      (item, outcome) => send({ type: 'sandbox:item', id, item, ...outcome }),
    )
    return null
  })
}

process.on('message', (raw) => {
  const message = raw as HostMessage
  if (message?.type === 'host:run') void run(message)
  else if (message?.type === 'host:batch') void batch(message)
  else if (
    message?.type === 'host:fetch-result' ||
    message?.type === 'host:entry-result' ||
    message?.type === 'host:library-result'
  ) {
    const calls = waiting.get(message.id)
    const call = calls?.get(message.call)
    if (!call) return
    calls!.delete(message.call)
    call.resolve(message)
  }
})
/**
 * Ends this process at once. Never process.exit: its exit handlers run isolated-vm's thread-pool
 * destructor, which joins an isolate's thread; a plugin inside a synchronous host call (`take`,
 * the URL parser) waits there for this very thread, so the exit hung for good and the orphan kept
 * its memory. Nothing here needs flushing: runs in flight are the server's to fail.
 */
function exitNow(): never {
  process.kill(process.pid, 'SIGKILL')
  throw new Error('unreachable: SIGKILL ends the process')
}

// The server going away closes the channel: nothing is left to answer. The event alone missed a
// server killed while this process was still loading (an orphan lived on for minutes), so the
// channel is also looked at every second.
process.on('disconnect', exitNow)
const SERVER_GONE_CHECK_MS = 1_000
setInterval(() => {
  if (!process.connected) exitNow()
}, SERVER_GONE_CHECK_MS).unref()
if (!process.connected) exitNow()
// A failure of this program itself (a send on a channel that just closed, say): said on stderr,
// which the server logs, then the same hard exit; the server buries the process and starts another.
process.on('uncaughtException', (error) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`)
  exitNow()
})
lowerPriority()
idleRss = collect()
send({ type: 'sandbox:ready' })
