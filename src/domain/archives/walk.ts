// Walking the content folder. Linked folders and files are followed (libraries link folders from
// other disks in), a folder reached twice (a link loop, two links to one folder) is walked once, a
// link to a folder of the content folder itself is left to that folder's own path, and an entry that cannot be reached (a loop, a broken link, no permission, a name too long) is
// skipped with a warning: one bad entry never fails the walk, only an unreadable content folder.
import type { Dirent, Stats } from 'node:fs'
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises'
import { basename, join, sep } from 'node:path'
import { AppError } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { folderOf, isArchiveFile, toContentPath } from './files.ts'
import { IGNORE_FILE_NAME, isIgnored, parseIgnoreFile, type IgnoreRule } from './ignore-file.ts'

const log = createLogger('scan')

export type Unreachable = { path: string; reason: string }

export type ContentWalk = {
  /** Absolute paths of the files whose name `wanted` accepts. */
  files: string[]
  /** Content-relative paths of entries with a wanted name that could not be reached. */
  unreadable: Unreachable[]
  /** Content-relative folders that could not be listed: what they hold is unknown, not gone. */
  skippedDirs: string[]
}

const REASON_OF: Record<string, string> = {
  ELOOP: 'symbolic link loop',
  ENOENT: 'broken symbolic link',
  ENOTDIR: 'broken symbolic link',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENAMETOOLONG: 'name too long',
}

/** A reason without the server's paths (system messages name them). */
export function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  return code ? `${REASON_OF[code] ?? 'cannot be read'} (${code})` : 'cannot be read'
}

type Folder = { path: string; key: string }

const keyOf = (st: Stats): string => `${st.dev}:${st.ino}`

/**
 * Whether the folder a link leads to is in the content folder (`libraryRoot`, real path): a whole
 * walk reaches it by its own path before any link, and a walk of some paths finds it there too
 * when it changes. Followed through the link, its files would come back as duplicates of
 * themselves.
 */
async function leadsIntoLibrary(libraryRoot: string, linkPath: string): Promise<boolean> {
  const target = await realpath(linkPath).catch(() => null)
  return target !== null && (target === libraryRoot || target.startsWith(libraryRoot + sep))
}

/**
 * The files under `start` (the content folder unless named: a folder inside it) whose name
 * `wanted` accepts. Only the content folder itself failing to list fails the walk.
 */
export async function walkContentFolder(
  contentDir: string,
  wanted: (name: string) => boolean,
  start = contentDir,
): Promise<ContentWalk> {
  const walk: ContentWalk = { files: [], unreadable: [], skippedDirs: [] }
  const relative = (absPath: string) => toContentPath(contentDir, absPath)
  const skip = (absPath: string, why: string, listed: boolean) => {
    log.warn('skipped an entry of the content folder', { path: relative(absPath), reason: why })
    if (listed) walk.unreadable.push({ path: relative(absPath), reason: why })
  }
  const root = await stat(start).catch((error: unknown) => {
    throw new AppError('internal', `The content folder cannot be read: ${reasonOf(error)}.`)
  })
  const libraryRoot = await realpath(contentDir)
  // Real (dev, inode) of each folder walked: a folder reached again is a loop or an alias.
  const visited = new Set<string>()
  const firstVisit = (folder: Folder): boolean => {
    if (visited.has(folder.key)) {
      skip(folder.path, 'folder already walked (a link loop or a second link to it)', false)
      return false
    }
    visited.add(folder.key)
    return true
  }
  // Folders inside the content folder are all walked before any linked one, so a folder that is
  // also reachable through a link keeps its own path.
  const plain: Folder[] = [{ path: start, key: keyOf(root) }]
  const linked: Folder[] = []
  for (let folder = plain.pop() ?? linked.pop(); folder; folder = plain.pop() ?? linked.pop()) {
    if (!firstVisit(folder)) continue
    let entries: Dirent[]
    try {
      entries = await readdir(folder.path, { withFileTypes: true })
    } catch (error) {
      if (folder.path === contentDir)
        throw new AppError('internal', `The content folder cannot be read: ${reasonOf(error)}.`)
      skip(folder.path, reasonOf(error), false)
      walk.skippedDirs.push(relative(folder.path))
      continue
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const subfolders: { folder: Folder; isLink: boolean }[] = []
    for (const entry of entries) {
      const absPath = join(folder.path, entry.name)
      if (entry.isFile()) {
        if (wanted(entry.name)) walk.files.push(absPath)
        continue
      }
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue // devices, FIFOs, sockets
      let target: Stats
      try {
        target = await stat(absPath)
      } catch (error) {
        skip(absPath, reasonOf(error), wanted(entry.name))
        continue
      }
      if (
        target.isDirectory() &&
        entry.isSymbolicLink() &&
        (await leadsIntoLibrary(libraryRoot, absPath))
      )
        skip(absPath, 'link to a folder of the content folder (walked by its own path)', false)
      else if (target.isDirectory())
        subfolders.push({
          folder: { path: absPath, key: keyOf(target) },
          isLink: entry.isSymbolicLink(),
        })
      else if (target.isFile() && wanted(entry.name)) walk.files.push(absPath)
    }
    // Pushed in reverse, so they pop in name order: the same alias wins at every scan.
    for (const { folder, isLink } of subfolders.reverse()) (isLink ? linked : plain).push(folder)
  }
  return walk
}

const wantedByCatalogue = (name: string) => name === IGNORE_FILE_NAME || isArchiveFile(name)

/**
 * The archive files of the content folder as the catalogue takes them: the walk for archive
 * names, less what the `.lrrignore` files met on the way leave out (docs/api.md, Scanning).
 */
export async function walkArchiveFiles(contentDir: string): Promise<ContentWalk> {
  return leaveOutIgnored(contentDir, await walkContentFolder(contentDir, wantedByCatalogue), [])
}

/**
 * The archive files under some paths of the content folder (content-relative files or folders,
 * as the watcher names what changed), as walkArchiveFiles finds them there: folders walked whole,
 * the `.lrrignore` files of the folders above them applied as well. A path that is gone adds
 * nothing; one that cannot be reached is out of sight (`skippedDirs`), not gone.
 */
export async function walkArchiveFilesUnder(
  contentDir: string,
  paths: readonly string[],
): Promise<ContentWalk> {
  const walk: ContentWalk = { files: [], unreadable: [], skippedDirs: [] }
  const above = new Set<string>()
  const libraryRoot = await realpath(contentDir)
  for (const path of paths) {
    for (let folder = folderOf(path); ; folder = folderOf(folder)) {
      above.add(folder)
      if (folder === '') break
    }
    const absPath = join(contentDir, path)
    let target: Stats
    try {
      target = await stat(absPath)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') walk.skippedDirs.push(path)
      continue
    }
    if (target.isFile()) {
      if (wantedByCatalogue(basename(path))) walk.files.push(absPath)
      continue
    }
    if (!target.isDirectory()) continue
    const link = await lstat(absPath).catch(() => null)
    if (link?.isSymbolicLink() && (await leadsIntoLibrary(libraryRoot, absPath))) continue
    const found = await walkContentFolder(contentDir, wantedByCatalogue, absPath).catch(() => null)
    if (!found) {
      walk.skippedDirs.push(path)
      continue
    }
    walk.files.push(...found.files)
    walk.unreadable.push(...found.unreadable)
    walk.skippedDirs.push(...found.skippedDirs)
  }
  return leaveOutIgnored(contentDir, walk, [...above])
}

/**
 * The walk less the files its `.lrrignore` files leave out, and less those files themselves;
 * `folders` are more folders whose `.lrrignore` applies (those above a partial walk).
 */
async function leaveOutIgnored(
  contentDir: string,
  walk: ContentWalk,
  folders: readonly string[],
): Promise<ContentWalk> {
  const ignoreFiles = walk.files.filter((absPath) => basename(absPath) === IGNORE_FILE_NAME)
  for (const folder of folders) {
    const absPath = join(contentDir, folder, IGNORE_FILE_NAME)
    if (await Bun.file(absPath).exists()) ignoreFiles.push(absPath)
  }
  const rules = new Map<string, IgnoreRule[]>()
  for (const absPath of ignoreFiles) {
    const path = toContentPath(contentDir, absPath)
    try {
      const own = parseIgnoreFile(await readFile(absPath, 'utf8'))
      if (own.length > 0) rules.set(folderOf(path), own)
    } catch (error) {
      log.warn('skipped an ignore file of the content folder', { path, reason: reasonOf(error) })
    }
  }
  const kept = (path: string) => basename(path) !== IGNORE_FILE_NAME && !isIgnored(rules, path)
  return {
    files: walk.files.filter((absPath) => kept(toContentPath(contentDir, absPath))),
    unreadable: walk.unreadable.filter((entry) => kept(entry.path)),
    skippedDirs: walk.skippedDirs,
  }
}
