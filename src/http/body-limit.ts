// Request body caps, checked on the headers before any body is read: an open route (login) must
// not buffer a huge body, and an upload past the configured size is refused at once, as an Env.
import { uploadLimitBytes, type Config } from '../config.ts'
import { fail } from '../errors.ts'
import type { BodyClass } from './policy.ts'

/** Every body but a streamed one: JSON and small forms (a list of 10,000 ids is ~450 KiB). */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * Bun's own cap (`maxRequestBodySize`). Bun refuses a declared size past it with a bare 413
 * before any handler runs, so it sits above the upload limit: declared sizes up to twice the
 * limit get the Env below. An upload sent chunked is counted while it is read (multipart.ts).
 */
export function serverBodyCeiling(config: Pick<Config, 'maxUploadMb'>): number {
  return 2 * uploadLimitBytes(config)
}

/** Throws 413 (411 for an unmeasured small body) before the body is read. */
export function checkBodySize(
  request: Request,
  bodyClass: BodyClass,
  config: Pick<Config, 'maxUploadMb'>,
): void {
  const isUpload = bodyClass === 'stream'
  const declared = request.headers.get('content-length')
  if (declared === null) {
    // A chunked body could only be measured by reading it.
    if (!isUpload && request.headers.has('transfer-encoding'))
      throw fail.length_required('A request body needs a Content-Length header.')
    return
  }
  if (isUpload) {
    if (Number(declared) > uploadLimitBytes(config)) throw uploadTooLarge(config)
  } else if (Number(declared) > MAX_BODY_BYTES) {
    throw fail.payload_too_large(`The request body is larger than ${MAX_BODY_BYTES >> 20} MiB.`)
  }
}

export function uploadTooLarge(config: Pick<Config, 'maxUploadMb'>) {
  return fail.payload_too_large(
    `The upload is larger than this server's limit of ${config.maxUploadMb} MiB.`,
  )
}
