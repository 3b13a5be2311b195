// Perceptual hashes of archives for duplicate detection, taken with the thumbnail workers' page
// signature (the dHash the download comparison uses), always of a thumbnail: the same 500 px tall
// image whatever the page's size and format, so a resized, re-encoded copy hashes alike (a dHash of
// the full page drifts by up to 16 bits between a page and its enlarged WebP copy; of their
// thumbnails, by 2). The cover's is taken by the scan from the cover file (not while making the
// cover: that cost covers ~30% of their rate), the sampled pages' only when a scan finds the cover
// close to another one (scan.ts).
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { saveCoverHash } from '../../db/repos/duplicates.repo.ts'
import { createLogger } from '../../log.ts'

const log = createLogger('duplicates.hashes')

/** The hash alone: sharpness height 0 spares the worker a second decode. */
export const SIGNATURE = { hash: true, sharpnessHeight: 0 }

/**
 * Hashes a cover from its thumbnail (small: a cheap decode) and stores it with the thumbnail's
 * SHA-1 it describes. A failure is logged, never the thumbnail's failure.
 */
export async function hashCover(
  deps: Pick<Deps, 'db' | 'thumbnailer'>,
  archiveId: string,
  thumbnail: Uint8Array,
  source: string,
): Promise<string | null> {
  try {
    const { hash } = await deps.thumbnailer.signature(thumbnail, SIGNATURE)
    if (hash !== null) saveCoverHash(deps.db, archiveId, hash, source)
    return hash
  } catch (error) {
    // The archive may have been deleted meanwhile (its row gone: the insert is refused).
    log.warn('cover not hashed', { id: archiveId, error: (error as Error).message })
    return null
  }
}

/** What sampled page hashes were taken from: a rewritten or patched file changes it. */
export function pagesSourceOf(row: Pick<ArchiveRow, 'size' | 'mtimeMs' | 'pagecount'>): string {
  return `${row.size}:${row.mtimeMs}:${row.pagecount}`
}
