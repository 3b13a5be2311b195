// What a split reads: the archive's pages and the pages of the archives nested in it, one level
// deep. Each nested archive is copied out to the temp folder (bounded by MAX_NESTED_ARCHIVE_BYTES)
// so the archive reader opens it like any other file, with the same name guard and bomb limits.
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { isPageName } from '../../archive/entries.ts'
import { MAX_ENTRY_BYTES, MAX_TOTAL_BYTES } from '../../archive/limits.ts'
import { AppError, fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { naturalCompare } from '../../model/natural-sort.ts'
import { toAbsolutePath } from '../archives/files.ts'

const log = createLogger('split')

/** Entries expanded as nested archives (volumes packed inside a series archive). */
export const NESTED_ARCHIVE_EXTENSIONS = ['zip', 'cbz', 'rar', 'cbr', '7z', 'cb7', 'tar']
/** A nested archive is read into memory once to be copied out: the archive part's entry cap. */
export const MAX_NESTED_ARCHIVE_BYTES = MAX_ENTRY_BYTES
/** Temp folders of splits in progress, under the data folder's temp dir. */
export const SPLIT_TEMP_PREFIX = 'split-'

/**
 * Boot only (no split can be running): removes the temp folders of splits a crash cut short.
 * Returns how many.
 */
export async function removeInterruptedSplits(config: Deps['config']): Promise<number> {
  const names = (await readdir(config.tempDir).catch(() => [])).filter((name) =>
    name.startsWith(SPLIT_TEMP_PREFIX),
  )
  for (const name of names) await rm(join(config.tempDir, name), { recursive: true, force: true })
  return names.length
}

/** One page a split can place: where it lives and the path the tree and outputs name it by. */
export type SourcePage = {
  /** `Vol 1/001.jpg` for a page of the archive, `Vol 1.zip/001.jpg` for one of a nested archive. */
  path: string
  /** The nested archive's entry name, null for a page of the archive itself. */
  nested: string | null
  /** The page's entry name in its own archive. */
  entry: string
}

export type SplitSource = {
  archive: ArchiveRow
  /** Every page, natural order of path. */
  pages: SourcePage[]
  byPath: Map<string, SourcePage>
  /** Nested archive entry names with their page counts. */
  nested: Map<string, number>
  /**
   * Files that are neither pages nor expanded nested archives (ComicInfo.xml, text, an archive
   * nested two levels deep, as `Vol 1.zip/extra.zip`): never copied. Junk of file managers
   * (`__MACOSX/`, `.DS_Store`, `Thumbs.db`) is left out.
   */
  otherFiles: string[]
  /**
   * False when the archive or a nested one is read by extraction (RAR, 7z, compressed tar): the
   * reader lists their pages only, so files other than pages cannot be known.
   */
  listsEveryFile: boolean
  readPage(page: SourcePage): Promise<Uint8Array<ArrayBuffer>>
  /** Removes the copied-out nested archives. */
  dispose(): Promise<void>
}

/** What file managers leave behind (resource forks, folder caches): not the user's data. */
function isJunkName(name: string): boolean {
  const segments = name.split('/')
  const base = segments[segments.length - 1] ?? ''
  return (
    segments.includes('__MACOSX') ||
    ['.DS_Store', 'Thumbs.db', 'desktop.ini'].includes(base) ||
    base.startsWith('._')
  )
}

export function isNestedArchiveName(name: string): boolean {
  const dot = name.lastIndexOf('.')
  return dot > 0 && NESTED_ARCHIVE_EXTENSIONS.includes(name.slice(dot + 1).toLowerCase())
}

/**
 * Reads the archive's file list and expands its nested archives. A nested archive that cannot be
 * read (corrupt, too large, an unsafe entry name inside) refuses the whole source with 422: a
 * split that silently left a volume out could lose it when the original is deleted.
 */
export async function readSplitSource(
  deps: Pick<Deps, 'config' | 'reader'>,
  archive: ArchiveRow,
): Promise<SplitSource> {
  const absPath = toAbsolutePath(deps.config.contentDir, archive.path)
  const listing = await deps.reader.listFiles(absPath)
  const tempDir = join(deps.config.tempDir, `${SPLIT_TEMP_PREFIX}${crypto.randomUUID()}`)
  const copies = new Map<string, string>()
  const dispose = async () => {
    for (const copy of copies.values()) deps.reader.dropCached(copy)
    await rm(tempDir, { recursive: true, force: true }).catch((error: Error) =>
      log.warn('could not remove a split temp folder', { error: error.message }),
    )
  }
  try {
    const pages: SourcePage[] = []
    const nested = new Map<string, number>()
    const otherFiles: string[] = []
    let complete = listing.complete
    let copiedBytes = 0
    for (const name of listing.files) {
      if (isPageName(name)) {
        pages.push({ path: name, nested: null, entry: name })
        continue
      }
      // Checked first: a resource fork `__MACOSX/._Vol 1.zip` looks like a nested archive.
      if (isJunkName(name)) continue
      if (!isNestedArchiveName(name)) {
        otherFiles.push(name)
        continue
      }
      const copy = await copyOutNested(deps, absPath, name, tempDir, copies.size)
      copiedBytes += (await stat(copy)).size
      // The archive part bounds each entry; this bounds the temp folder a hostile archive of many
      // large nested entries could fill.
      if (copiedBytes > MAX_TOTAL_BYTES)
        throw fail.unprocessable(`nested archives exceed ${MAX_TOTAL_BYTES} bytes`)
      copies.set(name, copy)
      const inner = await deps.reader.listPages(copy).catch((error: unknown) => {
        const reason = error instanceof AppError ? error.message : 'unreadable'
        throw fail.unprocessable(`nested archive ${JSON.stringify(name)}: ${reason}`)
      })
      nested.set(name, inner.length)
      for (const entry of inner) pages.push({ path: `${name}/${entry}`, nested: name, entry })
      // Archives nested deeper are not expanded: they count, like any other file, as not carried.
      const innerPages = new Set(inner)
      const innerListing = await deps.reader.listFiles(copy)
      for (const file of innerListing.files)
        if (!innerPages.has(file) && !isJunkName(file)) otherFiles.push(`${name}/${file}`)
      complete &&= innerListing.complete
    }
    pages.sort((a, b) => naturalCompare(a.path, b.path))
    const byPath = new Map<string, SourcePage>()
    for (const page of pages) {
      // Only a crafted archive holds a page named like a page of one of its nested archives.
      if (byPath.has(page.path))
        throw fail.unprocessable(`ambiguous entry name: ${JSON.stringify(page.path)}`)
      byPath.set(page.path, page)
    }
    return {
      archive,
      pages,
      byPath,
      nested,
      otherFiles,
      listsEveryFile: complete,
      readPage: (page) =>
        page.nested === null
          ? deps.reader.readPage(absPath, page.entry)
          : deps.reader.readPage(copies.get(page.nested)!, page.entry),
      dispose,
    }
  } catch (error) {
    await dispose()
    throw error
  }
}

async function copyOutNested(
  deps: Pick<Deps, 'reader'>,
  absPath: string,
  name: string,
  tempDir: string,
  index: number,
): Promise<string> {
  const bytes = await deps.reader
    .readEntry(absPath, name, MAX_NESTED_ARCHIVE_BYTES)
    .catch((error: unknown) => {
      const reason = error instanceof AppError ? error.message : 'unreadable'
      throw fail.unprocessable(`nested archive ${JSON.stringify(name)}: ${reason}`)
    })
  if (!bytes) throw fail.unprocessable(`nested archive ${JSON.stringify(name)} cannot be read`)
  await mkdir(tempDir, { recursive: true })
  // Named by position, never by the untrusted entry name.
  const copy = join(tempDir, `nested-${index}`)
  await writeFile(copy, bytes)
  return copy
}
