// What a client may read of a failure: job errors and results are visible to guest tokens, so
// server paths (data folder, temp names, the content folder's location) never reach them. A
// path inside the content folder is shown relative to it; any other absolute path is dropped.
// The log keeps the whole message for the admin.
import { sep } from 'node:path'

/** Stands in for an absolute path that is not inside the content folder. */
export const HIDDEN_PATH = '[path]'

export type PathRoots = {
  /** Paths under it are shown relative to it (a user knows their archives by that name). */
  contentDir?: string
}

// System errors read "ENOENT: no such file or directory, open '/a/b'" (or "rename '/a' -> '/b'").
const SYSCALL_CLAUSE = /, ([a-z_]+) '([^'\n]+)'(?: -> '([^'\n]+)')?/g
const QUOTED_PATH = /(['"`])((?:\/|[A-Za-z]:[\\/]|file:\/\/)[^'"`\n]*)\1/g
// A bare token starting with '/' or a drive letter, not inside a word, URL or fraction ("3/5").
const BARE_PATH = /(^|[\s(=[])((?:\/|[A-Za-z]:\\|file:\/\/)[^\s'"`]+)/g
const TRAILING_PUNCTUATION = /[.,;:)\]]+$/

const isAbsolute = (path: string): boolean =>
  path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('file://')

/** The path as a client may see it: relative to the content folder, or null (hidden). */
function shownPath(path: string, roots: PathRoots): string | null {
  const root = roots.contentDir?.replace(/[\\/]+$/, '')
  if (root && path.startsWith(root + sep) && path.length > root.length + 1)
    return path.slice(root.length + 1)
  return null
}

/** The message with absolute paths made content-relative or removed. */
export function publicReason(message: string, roots: PathRoots = {}): string {
  return message
    .replace(SYSCALL_CLAUSE, (clause, syscall: string, from: string, to: string | undefined) => {
      if (!isAbsolute(from)) return clause
      const shownFrom = shownPath(from, roots)
      // The errno text before the clause is the reason; the server path adds nothing for a client.
      if (shownFrom === null) return ''
      const shownTo = to === undefined ? null : isAbsolute(to) ? shownPath(to, roots) : to
      return `, ${syscall} '${shownFrom}'${shownTo === null ? '' : ` -> '${shownTo}'`}`
    })
    .replace(QUOTED_PATH, (_quoted, quote: string, path: string) => {
      const shown = shownPath(path, roots)
      return shown === null ? HIDDEN_PATH : `${quote}${shown}${quote}`
    })
    .replace(BARE_PATH, (_match, before: string, token: string) => {
      const trailing = TRAILING_PUNCTUATION.exec(token)?.[0] ?? ''
      const path = token.slice(0, token.length - trailing.length)
      // One segment ("/api", "/") names no server location.
      if (path.startsWith('/') && !path.slice(1).includes('/')) return before + token
      return before + (shownPath(path, roots) ?? HIDDEN_PATH) + trailing
    })
}

/** The message of a thrown value, for the log and for publicReason. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
