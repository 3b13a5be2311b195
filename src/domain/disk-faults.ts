// A failed write of something a client sent (an upload being staged, a backup file for restore or
// import): a 500 Env naming the disk fault an operator can act on, never a server path, and never
// the 400 of a malformed body.
import { AppError } from '../errors.ts'
import type { Logger } from '../log.ts'

/** What the client is told of the disk faults an operator can act on; others stay generic. */
const DISK_FAULTS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exceeded',
  EIO: 'the disk reported an I/O error',
}

/** `The <what> could not be stored[: the disk is full].` as a 500, the fault logged. */
export function couldNotStore(what: string, cause: unknown, log: Logger): AppError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  const reason = code === undefined ? undefined : DISK_FAULTS[code]
  log.error(`could not store ${what === 'upload' ? 'an upload' : `a ${what}`}`, {
    code,
    error: cause instanceof Error ? cause.message : String(cause),
  })
  return new AppError(
    'internal',
    reason ? `The ${what} could not be stored: ${reason}.` : `The ${what} could not be stored.`,
    undefined,
    { cause },
  )
}
