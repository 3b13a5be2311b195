// Perceptual hashes of archives for duplicate detection, taken with the thumbnail workers' page
// signature (the dHash the download comparison uses): the cover's when its thumbnail is made, the
// sampled pages' only when a scan finds the cover close to another one.
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { saveCoverHash, savePageHashes } from '../../db/repos/duplicates.repo.ts'
import { AppError } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { pageListOf, readListedPage } from '../archives/patch.ts'
import { samplePages } from './group.ts'

const log = createLogger('duplicates.hashes')

/** The signature also measures sharpness, which is not used here: 8 px tall keeps it cheap. */
const SIGNATURE = { hash: true, sharpnessHeight: 8 }

/**
 * Hashes a cover from its thumbnail (already small: a cheap decode) and stores it with the
 * thumbnail's SHA-1 it describes. A failure is logged, never the thumbnail's failure.
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
export function pagesSourceOf(row: ArchiveRow): string {
  return `${row.size}:${row.mtimeMs}:${row.pagecount}`
}

/**
 * Hashes the sampled pages (group.ts `samplePages`) and stores them. An undecodable page is null
 * (it agrees with nothing); an archive that cannot be read throws.
 */
export async function hashSampledPages(
  deps: Pick<Deps, 'db' | 'reader' | 'config' | 'thumbnailer'>,
  row: ArchiveRow,
): Promise<(string | null)[]> {
  const pages = await pageListOf(deps, row)
  const hashes: (string | null)[] = []
  for (const page of samplePages(pages.length)) {
    const bytes = await readListedPage(deps, row, pages[page - 1]!)
    try {
      hashes.push((await deps.thumbnailer.signature(bytes, SIGNATURE)).hash)
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'unprocessable') throw error
      hashes.push(null)
    }
  }
  savePageHashes(deps.db, row.id, hashes, pagesSourceOf(row))
  return hashes
}
