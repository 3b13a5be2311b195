// The OPDS catalog's image answers, JPEG as its links say (domain/opds/images.ts): covers (a JPEG
// placeholder while none exists) and PSE pages (a JPEG page as it is, others converted, resized
// when the server resizes images).
import type { Deps } from '../deps.ts'
import type { ArchiveRow } from '../domain/archives/lookup.ts'
import type { ThumbnailOutcome } from '../domain/archives/thumbnails.ts'
import { openPageBody, pageEtag } from '../domain/archives/pages.ts'
import { resizedEtag, resizedPage } from '../domain/archives/page-resize.ts'
import { pageMimeType } from '../model/formats.ts'
import { etagMatches } from './conditional.ts'
import { originalPageResponse, pageNotModified, resizedPageResponse } from './page-response.ts'
import { sendThumbnail } from './thumbnail-response.ts'

/** The 200x300 grey placeholder of thumbnail-response.ts, as a JPEG. */
const PLACEHOLDER_JPEG = Buffer.from(
  '/9j/2wBDAAUDBAQEAwUEBAQFBQUGBwwIBwcHBw8LCwkMEQ8SEhEPERETFhwXExQaFRERGCEYGh0dHx8fExciJCIeJBweHx7/2wBDAQUFBQcGBw4ICA4eFBEUHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh7/wAARCAEsAMgDASIAAhEBAxEB/8QAGgABAQEBAQEBAAAAAAAAAAAAAAYEBwUBCP/EACsQAQAABAQFAwQDAAAAAAAAAAABAgMEBTV0sgcWVJLSBiEmEUFloxIiUf/EABQBAQAAAAAAAAAAAAAAAAAAAAD/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwD9GgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA8jGvUFlhN1Lb3FK4nnmkhPCNOWEYfSMYw+8Yf4w86YX0952S+TxuIud0dNLumejhvpLDbnDra4qV7uE9WjJPNCWeX6QjGEI+39QaOdML6e87JfI50wvp7zsl8jkvC+ovO+XxOS8L6i875fEDnTC+nvOyXyOdML6e87JfI5LwvqLzvl8TkvC+ovO+XxA50wvp7zsl8jnTC+nvOyXyOS8L6i875fFnxL0lhtth1zcU693GelRnnlhNPL9IxhCMff+oPWwX1BZYtdTW9vSuJJ5ZIzxjUlhCH0hGEPtGP+vXQPDrO62mm3Sr4AAAAAAAAAAAAAAAAEDxFzujppd0yxwLJLDTU9sEdxFzujppd0yxwLJLDTU9sAbQAAAGLHckv9NU2xbWLHckv9NU2xBHcOs7raabdKvkDw6zutppt0q+AAAAAAAAAAAAAAAABA8Rc7o6aXdMscCySw01PbBHcRc7o6aXdMscCySw01PbAG0AAABix3JL/AE1TbFtYsdyS/wBNU2xBHcOs7raabdKvkDw6zutppt0q+AAAAAAAAAAAAAAAABA8Rc7o6aXdMscCySw01PbBHcRc7o6aXdMscCySw01PbAG0AAABix3JL/TVNsW1ix3JL/TVNsQR3DrO62mm3Sr5A8Os7raabdKvgAAAAAAAAAAAAAAAARPr2yvbnGKVS3tLitJC3hCM1OnGaEI/ym9vZ5NOT1NTklp05cXkklhCEsssKkIQhD7QdMAc0+U/mf2Hyn8z+x0sBzT5T+Z/YfKfzP7HSwHNPlP5n9j5Uk9TVJJqdSXF55JoRhNLNCpGEYR+0XTAET6Csr22xirUuLS4oyRt4whNUpxlhGP8pfb3WwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA//Z',
  'base64',
)

export function sendOpdsCover(
  outcome: ThumbnailOutcome,
  set: { status?: number | string },
  request: Request,
) {
  if (outcome.kind !== 'placeholder') return sendThumbnail(outcome, set, request)
  return new Response(PLACEHOLDER_JPEG, {
    headers: { 'content-type': 'image/jpeg', 'cache-control': 'no-store' },
  })
}

/**
 * A PSE page as JPEG, at most `maxWidth` px wide when the server resizes images. A page that does
 * not decode goes out as it is (nothing else can be sent).
 */
export async function sendOpdsPage(
  deps: Pick<Deps, 'archives' | 'config' | 'reader' | 'settings' | 'thumbnailer'>,
  row: ArchiveRow,
  entry: string,
  ifNoneMatch: string | null,
  maxWidth: number | null,
): Promise<Response> {
  const width =
    maxWidth !== null && deps.settings.get('server_resizes_images') ? maxWidth : Infinity
  const converted = resizedEtag(row, entry, width, 'jpeg')
  const original = pageEtag(row, entry)
  for (const etag of [converted, original])
    if (etagMatches(ifNoneMatch, etag)) return pageNotModified(etag)
  // A JPEG page not to be resized needs no look at its pixels.
  const asStored = width === Infinity && pageMimeType(entry) === 'image/jpeg'
  const open = () => openPageBody(deps, row, entry)
  const copy = asStored
    ? null
    : await resizedPage(deps, row, entry, open, width, { convert: 'jpeg' })
  return copy ? resizedPageResponse(copy) : originalPageResponse(deps, row, entry)
}
