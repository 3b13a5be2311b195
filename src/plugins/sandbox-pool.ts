// The sandbox processes, one per isolation key (a plugin's file, by default): a plugin that takes
// its process down takes only its own runs with it. Processes start on first use, are replaced
// when they hold memory their runs could not give back, exit after a while idle, and are capped
// in number; past the cap a run waits for an idle process to make room.
import { createLogger } from '../log.ts'
import { startSandboxProcess, type SandboxProcess } from './sandbox-process.ts'

const log = createLogger('plugins.host')

/** Sandbox processes alive at once (each ~45 MB idle; docs/plugins.md). */
export const MAX_SANDBOX_PROCESSES = 6
/** An idle process exits after this long: its memory goes back to the machine. */
const IDLE_EXIT_MS = 60_000

export type SandboxPool = {
  /**
   * The ready process of `key`, started when there is none. The caller must `dispatch` on it at
   * once (no await in between): until then it counts as busy.
   */
  acquire(key: string): Promise<SandboxProcess>
  /** The caller of `acquire` is done dispatching (or gave up). */
  settle(process: SandboxProcess): void
  /** A run on the process ended; the process may now be idle. */
  ended(process: SandboxProcess): void
  close(): void
}

type Slot = { process: SandboxProcess; key: string; reserved: number; idle?: Timer }

export function createSandboxPool(options: { nodePath: string; mainPath: string }): SandboxPool {
  /** Every process not yet exited (dying ones count against the cap); `current` names the one
   * new runs of a key go to. */
  const all = new Set<Slot>()
  const current = new Map<string, Slot>()
  const waiting: (() => void)[] = []
  let closed = false

  const slotOf = (process: SandboxProcess) => [...all].find((slot) => slot.process === process)
  const busy = (slot: Slot) => slot.reserved > 0 || slot.process.pending.size > 0

  function wakeWaiting(): void {
    for (const wake of waiting.splice(0)) wake()
  }

  function remove(slot: Slot): void {
    clearTimeout(slot.idle)
    if (current.get(slot.key) === slot) current.delete(slot.key)
  }

  /** Kills an idle process that is spent, or arms its idle exit. */
  function whenIdle(slot: Slot): void {
    if (busy(slot) || slot.process.dead) return
    slot.process.keepAlive(false)
    if (slot.process.spent || waiting.length > 0) {
      remove(slot)
      slot.process.bury('replaced')
      return
    }
    clearTimeout(slot.idle)
    slot.idle = setTimeout(() => {
      if (busy(slot)) return
      remove(slot)
      slot.process.bury('idle')
    }, IDLE_EXIT_MS)
    slot.idle.unref()
  }

  function start(key: string): Slot {
    const slot: Slot = {
      key,
      reserved: 0,
      process: startSandboxProcess({
        ...options,
        onDeath(_process, why) {
          remove(slot)
          if (!closed && why !== 'idle' && why !== 'replaced')
            log.warn('plugin sandbox stopped; the next run starts a new one', { why, key })
        },
        onSpent: () => whenIdle(slot),
      }),
    }
    all.add(slot)
    current.set(key, slot)
    void slot.process.exited.then(() => {
      all.delete(slot)
      wakeWaiting()
    })
    return slot
  }

  async function acquire(key: string): Promise<SandboxProcess> {
    for (;;) {
      if (closed) throw new Error('plugin sandbox is closed')
      let slot = current.get(key)
      if (slot?.process.dead || slot?.process.spent) slot = undefined
      if (!slot && all.size >= MAX_SANDBOX_PROCESSES) {
        const idle = [...all].find((other) => !busy(other) && !other.process.dead)
        if (idle) {
          remove(idle)
          idle.process.bury('replaced')
        }
        // The cap is on processes alive: the next starts once one is gone.
        await new Promise<void>((resolve) => waiting.push(resolve))
        continue
      }
      slot ??= start(key)
      clearTimeout(slot.idle)
      slot.reserved++
      await slot.process.ready
      if (slot.process.dead) {
        slot.reserved--
        throw new Error('plugin sandbox exited before the run started')
      }
      slot.process.keepAlive(true)
      return slot.process
    }
  }

  return {
    acquire,
    settle(process) {
      const slot = slotOf(process)
      if (!slot) return
      slot.reserved--
      whenIdle(slot)
    },
    ended(process) {
      const slot = slotOf(process)
      if (slot) whenIdle(slot)
    },
    close() {
      closed = true
      for (const slot of [...all]) {
        remove(slot)
        slot.process.bury('closed')
      }
      wakeWaiting()
    },
  }
}
