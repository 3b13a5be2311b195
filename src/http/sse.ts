// Server-sent event streams (the download queue's live list, a page comparison's samples). One
// helper so every stream behaves alike: `text/event-stream`, never cached or buffered by a proxy,
// a comment line every few seconds so idle connections are not cut, events written only while
// the client is connected, and the producer told when the client goes away (so it unsubscribes).
// A stream that has an end says so with an explicit event before closing: no client may rely on
// the connection closing.

/** What a producer gets: send one event, or end the stream (after its end marker). */
export type SseSink = {
  /** Writes `event: <name>` and `data: <JSON>`; ignored once the stream is closed. */
  send(event: string, data: unknown): void
  /** Writes an event already in wire form (encodeSseEvent), shared between streams unchanged. */
  sendEncoded(event: Uint8Array): void
  /** Closes the stream; the producer's cleanup runs. */
  close(): void
  /** True once the client went away or close() ran. */
  readonly closed: boolean
}

/** Starts producing into the sink; answers its cleanup (unsubscribe, abort work), if any. */
export type SseProducer = (sink: SseSink) => void | (() => void) | Promise<void | (() => void)>

/** A comment line keeps proxies and browsers from timing an idle stream out. */
const HEARTBEAT_MS = 15_000

const encoder = new TextEncoder()
const ENCODED_SLICE_BYTES = 64 * 1024

/** One event in wire form; `data` is JSON on one line (JSON.stringify never emits raw newlines). */
export function formatSseEvent(event: string, data: unknown): string {
  if (/[\r\n]/.test(event)) throw new TypeError('An event name cannot hold a line break.')
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
}

/** One event in wire form, encoded once for streams that all send it (a shared snapshot). */
export function encodeSseEvent(event: string, data: unknown): Uint8Array {
  return encoder.encode(formatSseEvent(event, data))
}

/**
 * A streaming Response driven by `produce`. `signal` is the request's: when the client
 * disconnects the stream closes and the producer's cleanup runs exactly once.
 */
export function sseResponse(produce: SseProducer, signal?: AbortSignal): Response {
  let cleanup: (() => void) | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let closed = false
  let controller!: ReadableStreamDefaultController<Uint8Array>

  const finish = () => {
    if (closed) return
    closed = true
    clearInterval(heartbeat)
    signal?.removeEventListener('abort', finish)
    try {
      controller.close()
    } catch {
      // Already closed by a cancelled reader.
    }
    const run = cleanup
    cleanup = undefined
    run?.()
  }

  const write = (text: string | Uint8Array) => {
    if (closed) return
    try {
      controller.enqueue(typeof text === 'string' ? encoder.encode(text) : text)
    } catch {
      finish()
    }
  }

  const sink: SseSink = {
    send: (event, data) => write(formatSseEvent(event, data)),
    // In slices of one shared buffer: the server copies what a socket cannot take yet, and would
    // copy a whole snapshot per slow reader, where a slice is all that waits.
    sendEncoded: (event) => {
      for (let at = 0; at < event.length; at += ENCODED_SLICE_BYTES)
        write(event.subarray(at, at + ENCODED_SLICE_BYTES))
    },
    close: finish,
    get closed() {
      return closed
    },
  }

  const body = new ReadableStream<Uint8Array>({
    async start(c) {
      controller = c
      if (signal?.aborted) return finish()
      signal?.addEventListener('abort', finish, { once: true })
      heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS)
      // A retry hint first: a client that reconnects waits a second, and the open is flushed.
      write('retry: 1000\n\n')
      const stop = await produce(sink)
      if (typeof stop !== 'function') return
      if (closed) stop()
      else cleanup = stop
    },
    cancel: finish,
  })

  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx buffers proxied answers by default, which would hold events back.
      'x-accel-buffering': 'no',
    },
  })
}
