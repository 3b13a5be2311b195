// A multipart/form-data body read as it arrives (busboy): one file part streams to a sink the
// route gives, the text fields are kept in memory, capped. Elysia's own parser
// (`request.formData()`) would hold the whole body in memory first, and a 2 GiB upload would need
// more than that in RAM. For routes whose policy reads the body as a stream (`body: 'stream'`).
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy'
import { uploadLimitBytes, type Config } from '../config.ts'
import { AppError, fail } from '../errors.ts'
import { uploadTooLarge } from './body-limit.ts'

/** Largest text field (`title`, `tags`, `summary`, ...). */
export const MAX_FIELD_BYTES = 1024 * 1024
/** Text fields and file parts one body may carry; LANraragi clients send six parts at most. */
const MAX_FIELDS = 64
const MAX_FILE_PARTS = 8

/** Where the one file part of a form goes. */
export type FilePart<T> = {
  /** The part's field name. Parts under other names are skipped; a second one is a 400. */
  field: string
  /**
   * Reads the part's content as it arrives (`filename`: the name the client sent) and answers
   * what it made of it. It reports its own failures; a failure of `content` (a stopped body) is
   * rethrown by its read, and whatever it wrote it removes then.
   */
  receive: (filename: string, content: AsyncIterable<Uint8Array>) => Promise<T>
  /** Undoes a received part when the rest of the body fails after it. */
  discard: (received: T) => Promise<void>
}

export type MultipartForm<T> = { file: T; fields: Map<string, string> }

/** The body stream failed: the client went away or the server stopped mid-upload. */
function interrupted(error: unknown): never {
  throw new AppError('bad_request', 'The upload was interrupted.', undefined, { cause: error })
}

/** The body is not a well-formed multipart form (cut short, bad boundaries or headers). */
const malformed = (cause?: unknown) =>
  new AppError('bad_request', 'Malformed multipart body.', undefined, { cause })

/**
 * Parses the request body while it arrives and hands its file part to `part.receive`. Counts every
 * body byte against the streamed-body limit (the upload limit), as a Content-Length would be: a
 * chunked body past it is stopped there with 413. Whatever fails, nothing received is left behind.
 */
export async function readMultipart<T>(
  request: Request,
  config: Pick<Config, 'maxUploadMb'>,
  part: FilePart<T>,
): Promise<MultipartForm<T>> {
  const noFile = () =>
    fail.bad_request(`No file attached (multipart/form-data field "${part.field}").`)
  const contentType = request.headers.get('content-type') ?? ''
  // A raw, JSON or urlencoded body has no file part: a 400, like a form without one.
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) throw noFile()
  let parser: BusboyInstance
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS, files: MAX_FILE_PARTS },
    })
  } catch (error) {
    throw new AppError('bad_request', 'Malformed multipart body: no boundary.', undefined, {
      cause: error,
    })
  }

  // The first failure, whichever side sees it (body reader, parser, receiver), stops the rest.
  // Every wait below also ends on it. (Not a promise raced per chunk: each race would leave a
  // reaction on the pending one, keeping every chunk of the body alive until the end.)
  const stop = new AbortController()
  const halt = (error: unknown) => {
    if (!stop.signal.aborted) stop.abort(error)
  }
  const reader = request.body.getReader()

  const fields = new Map<string, string>()
  const file: { stream?: BusboyFileStream; receiving?: Promise<T> } = {}
  parser.on('error', (error) => halt(malformed(error)))
  parser.on('fieldsLimit', () => halt(fail.bad_request('Too many form fields.')))
  parser.on('filesLimit', () => halt(fail.bad_request('Too many file parts.')))
  parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated)
      halt(
        fail.payload_too_large(`The field "${name}" is larger than ${MAX_FIELD_BYTES >> 20} MiB.`),
      )
    else fields.set(name, value)
  })
  parser.on('file', (name, stream, filename) => {
    if (name !== part.field || file.receiving) {
      // The parser fails a part it cannot finish (the body ended inside it) on the part's stream.
      stream.on('error', () => halt(malformed()))
      // Parts under other names are skipped, as a form parser would leave them unread.
      stream.resume()
      if (name === part.field) halt(fail.bad_request('Only one file can be uploaded at a time.'))
      return
    }
    // The receiver reads this part and alone reports how it failed: its own failures (name,
    // type, disk) as AppErrors, the part's as the error its read saw. Halting on the part's
    // errors here would answer a full disk as a malformed body: the receiver's read, stopped by
    // the write error, aborts the part before the receiver has removed its file and reported.
    // An error outside that read (before it starts, after it stopped) would throw with no
    // listener; the read sees the first, the receiver has already failed for the second.
    stream.on('error', () => undefined)
    file.stream = stream
    file.receiving = part.receive(filename, stream)
    file.receiving.catch((error: unknown) =>
      halt(error instanceof AppError ? error : malformed(error)),
    )
  })
  stop.signal.addEventListener(
    'abort',
    () => {
      // Ends the receiver's read of the part (it then removes what it wrote) and a pending read.
      file.stream?.destroy()
      // The client may have gone already; the first failure is the one to answer.
      reader.cancel().catch(() => undefined)
    },
    { once: true },
  )

  const limit = uploadLimitBytes(config)
  let received = 0
  const check = () => {
    if (stop.signal.aborted) throw stop.signal.reason
  }
  try {
    for (;;) {
      const { done, value } = await reader.read().catch(interrupted)
      check()
      if (done) break
      received += value.byteLength
      if (received > limit) throw uploadTooLarge(config)
      if (!parser.write(value)) await until(parser, 'drain', stop.signal)
    }
    const finished = until(parser, 'finish', stop.signal)
    parser.end()
    await finished
    check()
    if (!file.receiving) throw noFile()
    const result = await file.receiving
    check()
    return { file: result, fields }
  } catch (error) {
    halt(error)
    parser.destroy()
    // A failed receiver removes what it wrote; a finished one is undone here.
    const settled = await file.receiving?.then(
      (value) => ({ value }),
      () => null,
    )
    if (settled) await part.discard(settled.value)
    throw stop.signal.reason
  }
}

/** Resolves on the parser's `event`, or at once when `signal` aborts; no listener stays behind. */
function until(parser: BusboyInstance, event: 'drain' | 'finish', signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const done = () => {
      parser.off(event, done)
      signal.removeEventListener('abort', done)
      resolve()
    }
    if (signal.aborted) return resolve()
    parser.on(event, done)
    signal.addEventListener('abort', done)
  })
}
