// A fake OpenAI-compatible provider on 127.0.0.1: answers POST /v1/chat/completions the way the
// test says (good JSON, malformed content, an error status, slowly, or as an SSE stream) and keeps
// every request so tests can check what the server sent.
export type Reply =
  /** A good answer: `choices[0].message.content` is this value as JSON. */
  | { json: unknown }
  /** The content as given (malformed: not JSON, or JSON of the wrong shape as text). */
  | { content: string }
  /** A whole response body that is not the chat-completions shape. */
  | { raw: string }
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Waits, then answers (the slow provider). */
  | { delayMs: number; then: Reply }
  /** SSE deltas, `data: [DONE]` last; `stallMs` waits before the end (a stream that stalls). */
  | { stream: string[]; stallMs?: number; events?: string[] }

export type SeenRequest = { path: string; authorization: string | null; body: any }

export type FakeProvider = {
  /** Base URL as configured (`.../v1`). */
  baseUrl: string
  requests: SeenRequest[]
  /** What the next requests get; a function sees the request body. */
  reply: Reply | ((body: any, n: number) => Reply)
  [Symbol.asyncDispose](): Promise<void>
}

const encoder = new TextEncoder()

function completion(content: string): Response {
  return Response.json({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  })
}

async function answer(reply: Reply): Promise<Response> {
  if ('delayMs' in reply) {
    await Bun.sleep(reply.delayMs)
    return answer(reply.then)
  }
  if ('json' in reply) return completion(JSON.stringify(reply.json))
  if ('content' in reply) return completion(reply.content)
  if ('raw' in reply)
    return new Response(reply.raw, { headers: { 'content-type': 'application/json' } })
  if ('status' in reply)
    return new Response(reply.body ?? '{"error":{"message":"fake failure"}}', {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    })
  const events = [
    ...reply.stream.map((delta) =>
      JSON.stringify({
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content: delta } }],
      }),
    ),
    ...(reply.events ?? []),
  ]
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(`data: ${event}\n\n`))
      if (reply.stallMs) await Bun.sleep(reply.stallMs)
      try {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'))
        controller.close()
      } catch {
        // the client went away while stalled
      }
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
}

export function startFakeProvider(): FakeProvider {
  const provider: FakeProvider = {
    baseUrl: '',
    requests: [],
    reply: { status: 500, body: '{"error":{"message":"no reply set"}}' },
    async [Symbol.asyncDispose]() {
      await server.stop(true)
    },
  }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 30,
    async fetch(request) {
      const url = new URL(request.url)
      const body = await request.json().catch(() => null)
      provider.requests.push({
        path: url.pathname,
        authorization: request.headers.get('authorization'),
        body,
      })
      if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions')
        return new Response('not found', { status: 404 })
      const reply =
        typeof provider.reply === 'function'
          ? provider.reply(body, provider.requests.length)
          : provider.reply
      return answer(reply)
    },
  })
  provider.baseUrl = `http://127.0.0.1:${server.port}/v1`
  return provider
}

/** The user message of a request the server sent (the prompt's data). */
export function userPrompt(request: SeenRequest): string {
  const messages = (request.body?.messages ?? []) as { role: string; content: string }[]
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n')
}
