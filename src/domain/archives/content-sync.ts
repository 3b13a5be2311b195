// Keeps the catalog in step with the content folder: index build, initial scan, watcher.
import { watch, type FSWatcher } from 'node:fs'
import { isAbsolute, sep } from 'node:path'
import type { Deps } from '../../deps.ts'
import { createLogger } from '../../log.ts'
import { hasFolderAbove } from './files.ts'
import { IGNORE_FILE_NAME } from './ignore-file.ts'

const log = createLogger('catalog')
/** Bursts of file events (a copy in progress) collapse into one rescan. */
const WATCH_DEBOUNCE_MS = 750
/**
 * Changed paths a burst may name before its rescan covers the whole folder instead. Below it,
 * only the named files and folders are walked: at a million files a whole pass takes ~12 s
 * (walking and stating every file), a pass over one folder of a thousand files ~40 ms.
 */
const MAX_WATCHED_PATHS = 256

export type ContentSync = {
  /** Queues a rescan (merged with one already queued or running) and returns its job id. */
  rescan(): number
  /** Resolves when the index is built and no rescan is queued or running. */
  idle(): Promise<void>
  /** Whether the content-folder watcher (LANraragi's Shinobu) is running. */
  watching(): boolean
  /**
   * (Re)starts the watcher, even when the config turned it off at boot (an admin asked), and
   * queues a rescan for what changed while it was down. False when the folder cannot be watched.
   */
  restartWatcher(): boolean
  /**
   * A rescan as LANraragi's, which restarts Shinobu: a watcher the configuration asks for and
   * /api/shinobu/stop stopped runs again (one the configuration leaves off stays off). The job id.
   */
  rescanAndResume(): number
  /** Stops the watcher; rescans still run on request. */
  stopWatcher(): void
  /**
   * Builds the index, queues the first scan and starts the watcher when the config asks for it.
   * Called once the job kinds are registered and the server listens.
   */
  start(): void
  stop(): void
}

export function createContentSync(deps: Pick<Deps, 'config' | 'jobs' | 'search'>): ContentSync {
  let lastScan: number | null = null
  let watcher: FSWatcher | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  let stopped = false
  let built: Promise<void> = Promise.resolve()

  const queueRescan = (args: { paths?: string[] }) => (lastScan = deps.jobs.enqueue('rescan', args))
  const rescan = () => queueRescan({})
  // What the watcher saw change since its last rescan: paths, or (null) the whole folder.
  let changed: Set<string> | null = new Set()
  const noteChange = (filename: string | Buffer | null) => {
    const path = typeof filename === 'string' ? watchedPath(filename) : null
    if (changed === null) return
    if (path === null) changed = null
    // A folder that moved in comes with an event per entry under it: the folder covers them.
    else if (hasFolderAbove(changed, path)) return
    else if (changed.size >= MAX_WATCHED_PATHS) changed = null
    else changed.add(path)
  }
  const rescanChanged = () => {
    const paths = changed
    changed = new Set()
    if (paths === null) rescan()
    else if (paths.size > 0) queueRescan({ paths: [...paths] })
  }

  const stopWatcher = () => {
    if (timer) clearTimeout(timer)
    timer = null
    changed = new Set()
    watcher?.close()
    watcher = null
  }

  const startWatcher = (): boolean => {
    stopWatcher()
    try {
      watcher = watch(deps.config.contentDir, { recursive: true }, (_event, filename) => {
        noteChange(filename)
        if (timer) clearTimeout(timer)
        timer = setTimeout(rescanChanged, WATCH_DEBOUNCE_MS)
      })
      // A watched folder that goes away ends the watcher: report it as stopped.
      const self = watcher
      watcher.on('error', (error) => {
        log.warn('content folder watcher stopped', { error: error.message })
        if (watcher === self) stopWatcher()
      })
      return true
    } catch (error) {
      log.warn('content folder watcher unavailable; use POST /api/shinobu/rescan', {
        error: (error as Error).message,
      })
      return false
    }
  }

  return {
    rescan,
    async idle() {
      await built
      for (;;) {
        const id = lastScan
        if (id === null) return
        await deps.jobs.waitFor(id)
        if (lastScan === id) return
      }
    },
    watching: () => watcher !== null,
    rescanAndResume() {
      if (!stopped && deps.config.watch && watcher === null) startWatcher()
      return rescan()
    },
    restartWatcher() {
      if (stopped || !startWatcher()) return false
      // Like LANraragi's Shinobu at start: catch up on what changed while nobody watched (after
      // the index build, as the initial scan).
      void built.then(() => {
        if (!stopped) rescan()
      })
      return true
    },
    stopWatcher,
    start() {
      // Built on a later tick: /api/info answers at once while search answers 204 until this
      // finishes. A server stopped before that tick skips both, since its database is closed by
      // then.
      built = Bun.sleep(0)
        .then(() => (stopped ? undefined : deps.search.build()))
        .then(() => {
          if (!stopped) rescan()
        })
      if (deps.config.watch) startWatcher()
    },
    stop() {
      stopped = true
      stopWatcher()
    },
  }
}

/**
 * The content-relative, '/'-separated path an event names, or null when the change may reach
 * beyond it: no name, the content folder itself, a name that leaves the folder, or an
 * `.lrrignore` file (its rules decide what the whole folder under it holds).
 */
function watchedPath(filename: string): string | null {
  const path = filename.split(sep).join('/')
  if (path === '' || isAbsolute(path)) return null
  const segments = path.split('/')
  if (segments.some((segment) => segment === '..' || segment === '.' || segment === '')) return null
  if (segments.at(-1) === IGNORE_FILE_NAME) return null
  return path
}
