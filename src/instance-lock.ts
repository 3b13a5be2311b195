// One server per data folder: `<data>/tankobun.lock` names the holder (pid, and its start time
// where /proc has it). A second start refuses while that process lives; a lock left by a process
// that died (kill -9, a power cut) is taken over, and so is one whose pid now belongs to another
// program (its start time differs).
import { closeSync, linkSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { reasonOf, StartError } from './start-error.ts'

export const LOCK_FILE = 'tankobun.lock'

/** Another live process holds the data folder. */
export class DataDirInUseError extends StartError {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `another Tankobun (pid ${pid}) is using the data folder ${dataDir}; stop it first, or give this one its own --data-dir`,
    )
  }
}

type Holder = { pid: number; started: string | null }

/** The process's start time (clock ticks since boot, /proc/<pid>/stat field 22), if readable. */
function startTimeOf(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

function isAlive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    // EPERM: alive, another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (holder.started === null) return true
  const started = startTimeOf(holder.pid)
  return started === null || started === holder.started
}

function readHolder(path: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Holder
    return Number.isInteger(holder.pid) ? holder : null
  } catch {
    return null
  }
}

/**
 * Takes the data folder's lock or throws DataDirInUseError; answers its release. The lock file is
 * written whole under a temp name and linked into place, so a reader never sees half of one.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE)
  const own: Holder = { pid: process.pid, started: startTimeOf('self') }
  const temp = `${path}.${process.pid}.${crypto.randomUUID()}`
  try {
    const fd = openSync(temp, 'w')
    try {
      writeSync(fd, JSON.stringify(own))
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    rmSync(temp, { force: true })
    throw new StartError(`cannot write to the data folder ${dataDir}: ${reasonOf(error)}`)
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, path)
        break
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error
      }
      const holder = readHolder(path)
      if (holder && isAlive(holder)) throw new DataDirInUseError(dataDir, holder.pid)
      // Left by a process that is gone (or unreadable): taken over.
      rmSync(path, { force: true })
    }
  } finally {
    rmSync(temp, { force: true })
  }
  return () => {
    const holder = readHolder(path)
    if (holder?.pid === own.pid && holder.started === own.started) rmSync(path, { force: true })
  }
}
