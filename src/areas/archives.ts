// Archives: the catalog, the content folder kept in sync, uploads, pages and thumbnails.
import { log } from './log.ts'
import type { Area } from './area.ts'
import { archivesPolicy, archivesRoutes } from '../http/routes/archives.ts'
import { createUploadsInFlight, removeInterruptedWrites } from '../domain/archives/upload.ts'
import type { UploadsInFlight } from '../domain/archives/upload.ts'
import { createPlacement, type Placement } from '../domain/archives/placement.ts'
import { createUnreadableFiles, type UnreadableFiles } from '../domain/archives/scan.ts'
import { createDimensionCache, type DimensionCache } from '../domain/archives/pages.ts'
import { createContentSync, type ContentSync } from '../domain/archives/content-sync.ts'
import { readComicInfoOfNewArchives } from '../domain/archives/comicinfo-at-catalogue.ts'
import { createThumbnailFailures, type ThumbnailFailures } from '../domain/archives/thumbnails.ts'
import { createResizedPages, type ResizedPages } from '../domain/archives/page-resize.ts'
import { rescanJob, type RescanArgs } from '../jobs/kinds/rescan.ts'
import {
  regenThumbsJob,
  thumbnailsJob,
  type RegenThumbsArgs,
  type ThumbnailArgs,
} from '../jobs/kinds/thumbnails.ts'
import { extractJob, type ExtractArgs } from '../jobs/kinds/extract.ts'

export type ArchivesState = {
  uploads: UploadsInFlight
  /** Serializes giving files their final name in the content folder (rename, upload). */
  placement: Placement
  /** Files the scan could not read, not retried while unchanged. */
  unreadable: UnreadableFiles
  /** Natural page sizes already measured. */
  dimensions: DimensionCache
  /** Content-folder sync (scan, watcher), started once the server listens. */
  contentSync: ContentSync
  /** Thumbnails that failed on the page itself: GET thumbnail answers their job again. */
  thumbnailFailures: ThumbnailFailures
  /** Resized page copies on disk, and the page bytes held at once to make them. */
  resizedPages: ResizedPages
}

type ArchivesJobArgs = {
  rescan: RescanArgs
  thumbnails: ThumbnailArgs
  regen_thumbs: RegenThumbsArgs
  extract: ExtractArgs
}

export const archivesArea: Area<'archives', ArchivesState, ArchivesJobArgs> = {
  name: 'archives',
  state: (infra) => ({
    uploads: createUploadsInFlight(),
    placement: createPlacement(),
    unreadable: createUnreadableFiles(),
    dimensions: createDimensionCache(),
    contentSync: createContentSync(infra),
    thumbnailFailures: createThumbnailFailures(),
    resizedPages: createResizedPages(infra.config),
  }),
  jobs: {
    rescan: rescanJob,
    thumbnails: thumbnailsJob,
    regen_thumbs: regenThumbsJob,
    extract: extractJob,
  },
  // New archives' ComicInfo.xml as tags, after the scan's write; stopped before the reader.
  subscribe: (deps) => readComicInfoOfNewArchives(deps),
  recover: async ({ config }) => {
    const removed = await removeInterruptedWrites(config)
    if (removed > 0) log.warn('removed files left by interrupted uploads', { count: removed })
  },
  start: ({ archives }) => {
    archives.contentSync.start()
    return () => archives.contentSync.stop()
  },
  routes: [{ routes: archivesRoutes, policy: archivesPolicy }],
}
