// The download of an archive file: its bytes streamed from disk, its MIME type, and a
// Content-Disposition every client can read the name from.
import type { Deps } from '../deps.ts'
import type { ArchiveRow } from '../domain/archives/lookup.ts'
import { toAbsolutePath } from '../domain/archives/files.ts'
import { buildPatchedArchive } from '../domain/archives/patch.ts'
import { archiveMimeType } from '../model/formats.ts'

/**
 * `filename` (quoted, ASCII only) for clients that read nothing else, and `filename*` (RFC 6266,
 * UTF-8) with the exact name for those that do.
 */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`
}

/**
 * The archive as an attachment under its file name; Bun streams the file, never buffers it. An
 * archive with a patch is answered as a CBZ of its pages with the patch's in place. `typeOf`: the
 * MIME type of an extension (OPDS sends the comic-book types its feeds announce).
 */
export async function sendArchiveFile(
  deps: Pick<Deps, 'config' | 'db' | 'reader'>,
  row: ArchiveRow,
  typeOf: (extension: string) => string = archiveMimeType,
): Promise<Response> {
  if (row.hasPatch) {
    const zip = await buildPatchedArchive(deps, row)
    return new Response(zip as Uint8Array<ArrayBuffer>, {
      headers: {
        'content-type': typeOf('cbz'),
        'content-disposition': attachmentDisposition(`${row.filename}.cbz`),
      },
    })
  }
  const file = Bun.file(toAbsolutePath(deps.config.contentDir, row.path))
  return new Response(file, {
    headers: {
      'content-type': typeOf(row.extension),
      'content-disposition': attachmentDisposition(`${row.filename}.${row.extension}`),
    },
  })
}
