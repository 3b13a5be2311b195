// A start that cannot go on for a reason the user can fix (a folder that cannot be created, the
// data folder held by another server): main.ts prints its message as one line, no stack.
export class StartError extends Error {}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a file is in the way',
  EEXIST: 'a file is in the way',
  ENOSPC: 'the disk is full',
}

/** A file-system error in a few words: its cause by code, else its message. */
export function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const reason = code === undefined ? undefined : REASONS[code]
  if (reason) return `${reason} (${code})`
  return error instanceof Error ? error.message : String(error)
}
