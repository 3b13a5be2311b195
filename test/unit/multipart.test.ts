// The generic streamed multipart reader: text fields, one file part handed to the route's
// receiver under the field name the route chose, and what a failure after the file undoes.
import { describe, expect, it } from 'bun:test'
import { readMultipart, type FilePart } from '../../src/http/multipart.ts'
import { AppError } from '../../src/errors.ts'

const config = { maxUploadMb: 1 }

function put(form: FormData): Request {
  return new Request('http://localhost/', { method: 'PUT', body: form })
}

/**
 * A receiver that keeps the bytes in memory. `left` holds what it received and nobody undid: a
 * receiver whose read fails drops its own part, as stageUpload removes its partial file.
 */
function collector(field = 'doc') {
  const left = new Set<string>()
  const part: FilePart<{ name: string; text: string }> = {
    field,
    async receive(filename, content) {
      left.add(filename)
      const chunks: Uint8Array[] = []
      try {
        for await (const chunk of content) chunks.push(chunk)
      } catch (error) {
        left.delete(filename)
        throw error
      }
      return { name: filename, text: Buffer.concat(chunks).toString() }
    },
    async discard(received) {
      left.delete(received.name)
    },
  }
  return { part, left }
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (error: unknown) => error as AppError,
  )

describe('readMultipart', () => {
  it('hands the named file part to the receiver and keeps the text fields', async () => {
    const form = new FormData()
    form.set('note', 'before')
    form.set('doc', new File(['hello'], 'hello.txt'))
    form.set('other', new File(['skipped'], 'other.txt'))
    form.set('after', 'ünïcode')
    const { part } = collector()
    const read = await readMultipart(put(form), config, part)
    expect(read.file).toEqual({ name: 'hello.txt', text: 'hello' })
    expect(Object.fromEntries(read.fields)).toEqual({ note: 'before', after: 'ünïcode' })
  })

  it("names the route's field when the file part is missing", async () => {
    const form = new FormData()
    form.set('note', 'no file')
    const error = await failureOf(readMultipart(put(form), config, collector('backup').part))
    expect(error.status).toBe(400)
    expect(error.message).toBe('No file attached (multipart/form-data field "backup").')
  })

  it('leaves nothing received behind when a later field is past its cap (413)', async () => {
    const form = new FormData()
    form.set('doc', new File(['kept?'], 'doc.txt'))
    form.set('summary', 'x'.repeat(1024 * 1024 + 1))
    const { part, left } = collector()
    const error = await failureOf(readMultipart(put(form), { maxUploadMb: 4 }, part))
    expect(error.status).toBe(413)
    expect(error.message).toBe('The field "summary" is larger than 1 MiB.')
    expect([...left]).toEqual([])
  })

  it('undoes a file already received when the body fails after it', async () => {
    const form = new FormData()
    form.set('doc', new File(['whole file'], 'doc.txt'))
    form.set('summary', 'x'.repeat(1024 * 1024 + 1))
    const encoded = new Response(form)
    const contentType = encoded.headers.get('content-type')!
    const bytes = await encoded.bytes()
    const text = Buffer.from(bytes).toString('latin1')
    // Through the boundary that ends the file part: the receiver can finish before the rest.
    const cut = text.indexOf('\r\n--', text.indexOf('whole file')) + 4
    const boundary = contentType.split('boundary=')[1]!
    const head = bytes.subarray(0, cut + boundary.length + 2)
    const { part, left } = collector()
    let finished!: () => void
    const receivedWhole = new Promise<void>((resolve) => (finished = resolve))
    const receive = part.receive
    part.receive = async (filename, content) => {
      const got = await receive(filename, content)
      finished()
      return got
    }
    let sent = false
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent) {
          // The rest only once the file part has been received whole.
          await receivedWhole
          controller.enqueue(bytes.subarray(head.byteLength))
          controller.close()
          return
        }
        sent = true
        controller.enqueue(head)
      },
    })
    const request = new Request('http://localhost/', {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body,
    })
    const error = await failureOf(readMultipart(request, { maxUploadMb: 4 }, part))
    expect(error.message).toBe('The field "summary" is larger than 1 MiB.')
    expect([...left]).toEqual([])
  })

  it('refuses a second file part under the same name, leaving nothing received behind', async () => {
    const form = new FormData()
    form.append('doc', new File(['a'], 'a.txt'))
    form.append('doc', new File(['b'], 'b.txt'))
    const { part, left } = collector()
    const error = await failureOf(readMultipart(put(form), config, part))
    expect(error.message).toBe('Only one file can be uploaded at a time.')
    expect([...left]).toEqual([])
  })
})
