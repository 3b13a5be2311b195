// Entry names are untrusted input: the safe-name guard, the page filter and the page order.
import { fail } from '../errors.ts'
import { PAGE_EXTENSIONS } from '../model/formats.ts'
import { MAX_ENTRIES } from './limits.ts'

/** Archives made on Windows use backslashes; every format exposes names with '/' only. */
export function normalizeEntryName(raw: string): string {
  return raw.replaceAll('\\', '/')
}

/** Why a name could escape a folder it is extracted to, or null when it is safe. */
export function unsafeReason(name: string): string | null {
  if (name.includes('\0')) return 'NUL byte'
  const path = normalizeEntryName(name)
  if (path.startsWith('/')) return 'absolute path'
  if (/^[a-zA-Z]:/.test(path)) return 'drive letter'
  if (path.split('/').includes('..')) return 'parent segment'
  return null
}

export function isPageName(name: string): boolean {
  if (name.endsWith('/')) return false
  const segments = name.split('/')
  // macOS resource forks (__MACOSX/._x.jpg) and hidden files look like pages but are not.
  if (segments.some((s) => s === '__MACOSX' || s.startsWith('.'))) return false
  const base = segments[segments.length - 1] ?? ''
  const dot = base.lastIndexOf('.')
  return dot > 0 && PAGE_EXTENSIONS.has(base.slice(dot + 1).toLowerCase())
}

/** An entry as the page selection sees it; links and special files are never pages. */
export type EntryName = { name: string; isDirectory: boolean; isSpecial?: boolean }

/**
 * LANraragi's sort key of a page path (`expand` in its get_filelist): every run of ASCII digits
 * written with at least four (`7` and `007` as `0007`), ASCII letters lowercased. Names are
 * compared by these keys (code units: code-point order, as Perl compares, for every character up
 * to U+FFFF), so `page-01` comes before `page_02` and `été` after `f1`.
 */
export function pageSortKey(path: string): string {
  return path
    .replace(/[0-9]+/g, (digits) => digits.replace(/^0+(?=[0-9])/, '').padStart(4, '0'))
    .replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

/**
 * Paths in LANraragi's page order: by `pageSortKey`; paths with one key keep the order the archive
 * lists them in (Perl's sort is stable, and so is this one).
 */
export function sortPagePaths(paths: readonly string[]): string[] {
  return paths
    .map((path) => ({ path, key: pageSortKey(path) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((entry) => entry.path)
}

/**
 * The page list of an archive: refuses the whole archive when any name is unsafe (a crafted
 * archive is not worth half-serving), keeps image files, sorts them by full path as LANraragi does
 * (`sortPagePaths`), then moves cover pages first and credit pages last (`orderPages`).
 */
export function selectPages(entries: Iterable<EntryName>): string[] {
  const pages = new Set<string>()
  let count = 0
  for (const entry of entries) {
    if (++count > MAX_ENTRIES) throw fail.unprocessable(`more than ${MAX_ENTRIES} entries`)
    const reason = unsafeReason(entry.name)
    if (reason)
      throw fail.unprocessable(`unsafe entry name: ${JSON.stringify(entry.name)} (${reason})`)
    if (!entry.isDirectory && !entry.isSpecial && isPageName(entry.name)) pages.add(entry.name)
  }
  return orderPages(sortPagePaths([...pages]))
}

// LANraragi's get_filelist patterns, matched on the full entry path as it does: a "cover" page
// that is not a back, end or rear cover (nor "recover", "discover") opens the archive; notes,
// translator credits and 999... pages close it.
const COVER_PAGE = /^(?!.*(back|end|rear|recover|discover)).*cover/i
const CREDIT_PAGE = /^end_card_save_file|notes?\.[^.]*$|^artist_info|credit|^999/i

/**
 * Cover pages first and credit pages last, each group keeping its order. A page matching both
 * counts as a cover (LANraragi would list it twice).
 */
export function orderPages(sorted: string[]): string[] {
  const covers: string[] = []
  const pages: string[] = []
  const credits: string[] = []
  for (const name of sorted) {
    if (COVER_PAGE.test(name)) covers.push(name)
    else if (CREDIT_PAGE.test(name)) credits.push(name)
    else pages.push(name)
  }
  return [...covers, ...pages, ...credits]
}

/** readPage accepts only exact names from the listing, so a crafted path never reaches a reader. */
export function assertPageOf(pages: ReadonlySet<string>, entryName: string): void {
  if (!pages.has(entryName))
    throw fail.bad_request(`${JSON.stringify(entryName)} is not a page of this archive`)
}
