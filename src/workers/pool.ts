// A small pool of Bun Workers with typed calls: a crashed worker fails its calls and is replaced.
import { AppError } from '../errors.ts'
import { createLogger } from '../log.ts'
import type { HostMessage, WorkerMessage } from './protocol.ts'

const log = createLogger('workers.pool')

export type WorkerPool<Req, Res> = {
  run(request: Req): Promise<Res>
  close(): Promise<void>
}

export type WorkerPoolOptions = {
  /** Module the workers run; it calls serveCalls(). */
  url: URL | string
  size: number
  /** Calls given to one worker at once; more wait in the queue. */
  callsPerWorker?: number
  /** What a failed call reports when its worker died (e.g. 'archive extraction failed'). */
  crashMessage: string
  /** A call running longer than this kills its worker (a decoder stuck in a loop); default none. */
  timeoutMs?: number
}

// Bun's Worker can stop holding the process open while idle; lib.dom's type does not say so.
type BunWorker = Worker & { ref(): void; unref(): void }
type Pending<Res> = { resolve(value: Res): void; reject(err: Error): void; timer?: Timer }
type Slot<Res> = { worker: BunWorker; pending: Map<number, Pending<Res>>; dead: boolean }
type Queued<Req, Res> = { request: Req } & Pending<Res>

export function createWorkerPool<Req, Res>(options: WorkerPoolOptions): WorkerPool<Req, Res> {
  const perWorker = options.callsPerWorker ?? 1
  const slots: Slot<Res>[] = []
  const queue: Queued<Req, Res>[] = []
  let nextId = 1
  let closed = false

  /** `why` goes to the caller (no code or paths); `detail` only to the log. */
  function bury(slot: Slot<Res>, why: string, detail?: string): void {
    if (slot.dead) return
    slot.dead = true
    slots.splice(slots.indexOf(slot), 1)
    slot.worker.terminate()
    for (const call of slot.pending.values()) {
      clearTimeout(call.timer)
      call.reject(new AppError('unprocessable', `${options.crashMessage}: ${why}`))
    }
    slot.pending.clear()
    if (!closed) log.warn('worker died, replacing it', { url: String(options.url), why, detail })
    dispatch()
  }

  function spawn(): Slot<Res> {
    // Workers start lazily: a server that never opens a RAR never pays for the WASM.
    const worker = new Worker(options.url) as BunWorker
    const slot: Slot<Res> = { worker, pending: new Map(), dead: false }
    worker.onmessage = (event: MessageEvent<WorkerMessage<Res>>) => {
      const message = event.data
      if (message.type === 'worker:ready') return
      const call = slot.pending.get(message.id)
      if (!call) return
      slot.pending.delete(message.id)
      clearTimeout(call.timer)
      if (message.type === 'worker:result') call.resolve(message.result)
      else call.reject(new AppError(message.code, message.message))
      if (slot.pending.size === 0) worker.unref()
      dispatch()
    }
    // Without these handlers an error thrown inside the worker would take the server down.
    worker.addEventListener('error', (event) => {
      event.preventDefault()
      bury(slot, 'worker crashed', event.message)
    })
    worker.addEventListener('messageerror', () => bury(slot, 'unreadable worker message'))
    worker.addEventListener('close', () => bury(slot, 'worker exited'))
    slots.push(slot)
    return slot
  }

  function dispatch(): void {
    while (queue.length > 0 && !closed) {
      let slot = slots.find((s) => s.pending.size === 0) ?? null
      if (!slot && slots.length < options.size) slot = spawn()
      slot ??= slots.find((s) => s.pending.size < perWorker) ?? null
      if (!slot) return
      const call = queue.shift()!
      const id = nextId++
      const target = slot
      if (options.timeoutMs)
        call.timer = setTimeout(() => bury(target, 'timed out'), options.timeoutMs)
      slot.pending.set(id, call)
      slot.worker.ref()
      const message: HostMessage<Req> = { type: 'host:call', id, request: call.request }
      slot.worker.postMessage(message)
    }
  }

  return {
    run(request) {
      if (closed) return Promise.reject(new AppError('internal', 'worker pool is closed'))
      return new Promise<Res>((resolve, reject) => {
        queue.push({ request, resolve, reject })
        dispatch()
      })
    },
    async close() {
      closed = true
      for (const call of queue.splice(0))
        call.reject(new AppError('internal', 'worker pool closed'))
      for (const slot of [...slots]) bury(slot, 'pool closed')
    },
  }
}
