// A fake language-model provider on 127.0.0.1 for the wizard's tests: the chat-completions shape,
// plain (`stream: false`) and streamed (`data:` lines ending with `[DONE]`). Each request takes the
// next queued answer: good text, a malformed answer, or good text sent slowly. It records what it
// was asked and whether a streamed request was cut off by the server.

export type FakeAnswer =
  /** `content` as the message (plain) or in a few deltas (streamed). */
  | { kind: 'good'; content: string }
  /** Plain: a body that is not JSON; streamed: a delta, then a `data:` line that is not JSON. */
  | { kind: 'malformed' }
  /** As good, with a pause before the answer and between deltas. */
  | { kind: 'slow'; content: string; pauseMs: number }

export type FakeRequest = {
  stream: boolean
  messages: { role: string; content: string }[]
  authorization: string | null
}

export type FakeProvider = {
  baseUrl: string
  /** Queues answers, used in order; with none queued a request gets a 500. */
  answer(...answers: FakeAnswer[]): void
  requests: FakeRequest[]
  /** Resolves when a streamed answer's connection is closed before it was all sent. */
  cutOff: Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

const encoder = new TextEncoder()
const delta = (text: string) =>
  encoder.encode(
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`,
  )

/** A text cut into `parts` pieces of about the same length (the deltas of a stream). */
function pieces(text: string, parts = 4): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts))
  const out: string[] = []
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size))
  return out
}

export function startFakeProvider(): FakeProvider {
  const queue: FakeAnswer[] = []
  const requests: FakeRequest[] = []
  let markCutOff!: () => void
  const cutOff = new Promise<void>((resolve) => (markCutOff = resolve))

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions')
        return new Response('not found', { status: 404 })
      const body = (await request.json()) as { stream?: boolean; messages: FakeRequest['messages'] }
      const stream = body.stream === true
      requests.push({
        stream,
        messages: body.messages,
        authorization: request.headers.get('authorization'),
      })
      const next = queue.shift()
      if (!next) return Response.json({ error: { message: 'no answer queued' } }, { status: 500 })
      const pause = next.kind === 'slow' ? next.pauseMs : 0
      if (!stream) {
        await Bun.sleep(pause)
        if (next.kind === 'malformed')
          return new Response('{"choices": [{"message": ', {
            headers: { 'content-type': 'application/json' },
          })
        return Response.json({
          id: 'fake',
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: next.content },
              finish_reason: 'stop',
            },
          ],
        })
      }
      const parts = next.kind === 'malformed' ? ['```ts\n'] : pieces(next.content)
      let sent = 0
      const events = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await Bun.sleep(pause)
          if (sent < parts.length) {
            controller.enqueue(delta(parts[sent++]!))
            return
          }
          controller.enqueue(
            encoder.encode(
              next.kind === 'malformed' ? 'data: {"choices": [\n\n' : 'data: [DONE]\n\n',
            ),
          )
          controller.close()
        },
        cancel() {
          markCutOff()
        },
      })
      return new Response(events, { headers: { 'content-type': 'text/event-stream' } })
    },
  })

  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    answer: (...answers) => void queue.push(...answers),
    requests,
    cutOff,
    async [Symbol.asyncDispose]() {
      await server.stop(true)
    },
  }
}
