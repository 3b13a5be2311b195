// Images for OPDS readers: OPDS 1.2 and PSE allow only JPEG, PNG and GIF, and e-ink readers often
// cannot show WebP, which covers are by default. The catalog's covers are JPEG copies of the
// stored covers (kept beside them, remade when the cover is newer); its streamed pages are
// converted in page-resize.ts. Every image link of the catalog then says image/jpeg and means it.
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { AppError } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { getThumbnail, readImageFile, type ThumbnailOutcome } from '../archives/thumbnails.ts'

const log = createLogger('opds')

export const OPDS_IMAGE_TYPE = 'image/jpeg'

/**
 * The JPEG copy of a WebP cover: in the archive's page-thumbnail folder, which goes with the
 * archive's thumbnails (deleteThumbnails) and is remade when pages change.
 */
const copyPathOf = (deps: Pick<Deps, 'config'>, id: string) =>
  join(deps.config.thumbsDir, id.slice(0, 2), id, 'opds-cover.jpg')

/**
 * The archive's cover as JPEG: the stored cover when it is one, else its JPEG copy. No cover yet
 * (its job is queued) or a cover that does not convert: the placeholder.
 */
export async function opdsCover(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'jobs' | 'thumbnailer'>,
  row: ArchiveRow,
): Promise<ThumbnailOutcome> {
  const cover = await getThumbnail(deps, row, { noFallback: false })
  if (cover.kind !== 'file' || cover.contentType === OPDS_IMAGE_TYPE) return cover
  const path = copyPathOf(deps, row.id)
  const copy = await readImageFile(path, OPDS_IMAGE_TYPE)
  if (copy && copy.mtimeMs >= cover.mtimeMs) return { kind: 'file', ...copy }
  try {
    // At the cover's own height: the same picture in another format.
    const { height } = await deps.thumbnailer.dimensions(cover.bytes)
    await deps.thumbnailer.thumbnail(cover.bytes, path, { format: 'jpeg', height })
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    log.warn('cover not converted for OPDS', { id: row.id, error: error.message })
    return { kind: 'placeholder' }
  }
  // A rescan that finds the archive's file changed drops its thumbnail folder, this copy with it,
  // at any moment: then the cover is being made again, and the reader gets the placeholder.
  const made = await readImageFile(path, OPDS_IMAGE_TYPE)
  return made ? { kind: 'file', ...made } : { kind: 'placeholder' }
}
