// The event-stream helper every SSE route uses: wire format, end marker, cleanup on disconnect.
import { describe, expect, it } from 'bun:test'
import { formatSseEvent, sseResponse } from '../../src/http/sse.ts'

async function readAll(res: Response): Promise<string> {
  return await res.text()
}

describe('sseResponse', () => {
  it('answers an uncached event stream of named JSON events, ending when the producer closes', async () => {
    const res = sseResponse((sink) => {
      sink.send('full', { items: [{ id: '1', state: 'queued' }] })
      sink.send('delta', { id: '1', text: 'two\nlines' })
      sink.send('end', {})
      sink.close()
    })
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await readAll(res)).toBe(
      'retry: 1000\n\n' +
        'event: full\ndata: {"items":[{"id":"1","state":"queued"}]}\n\n' +
        'event: delta\ndata: {"id":"1","text":"two\\nlines"}\n\n' +
        'event: end\ndata: {}\n\n',
    )
  })

  it('runs the cleanup once when the client goes away, and drops later sends', async () => {
    const abort = new AbortController()
    let cleanups = 0
    let send: ((n: number) => void) | undefined
    const res = sseResponse((sink) => {
      send = (n) => sink.send('tick', { n })
      return () => cleanups++
    }, abort.signal)
    const reader = res.body!.getReader()
    await reader.read() // the retry hint
    send!(1)
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(
      'event: tick\ndata: {"n":1}\n\n',
    )
    abort.abort()
    send!(2)
    expect((await reader.read()).done).toBe(true)
    abort.abort()
    expect(cleanups).toBe(1)
  })

  it('runs the cleanup when the reader cancels, and at once when the client left before the start', async () => {
    let cleanups = 0
    const res = sseResponse(() => () => cleanups++)
    const reader = res.body!.getReader()
    await reader.read()
    await reader.cancel()
    expect(cleanups).toBe(1)

    const gone = new AbortController()
    gone.abort()
    let started = 0
    const early = sseResponse(() => {
      started++
      return () => cleanups++
    }, gone.signal)
    expect((await early.text()).length).toBe(0)
    expect(started).toBe(0)
  })

  it('refuses an event name with a line break (it would forge fields)', () => {
    expect(() => formatSseEvent('a\ndata: x', {})).toThrow(TypeError)
  })
})
