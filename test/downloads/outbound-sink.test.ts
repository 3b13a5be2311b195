// The outbound client's options for downloads to disk (src/net/fetch.ts): a body fed to a sink is
// never held in memory, so only the caller's cap applies to it; onResponse sees the status before
// any byte reaches the sink (a 500's page never lands in a file); timeoutMs replaces the client's
// budget. The plugin fetch bridge, which passes none of these, keeps the client's caps.
import { describe, expect, it } from 'bun:test'
import { AppError } from '../../src/errors.ts'
import { createOutboundFetch } from '../../src/net/fetch.ts'

function startSite(handle: (req: Request) => Response | Promise<Response>) {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handle })
  return { base: `http://127.0.0.1:${server.port}`, [Symbol.dispose]: () => void server.stop(true) }
}

const client = () =>
  createOutboundFetch({ allowPrivate: ['127.0.0.1'], maxResponseBytes: 1024, timeoutMs: 5000 })

async function failure(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  return err as AppError
}

describe('outbound fetch into a sink', () => {
  it("takes a body past the client's memory cap when the caller sets its own cap", async () => {
    using site = startSite(() => new Response(new Uint8Array(64 * 1024)))
    let received = 0
    const res = await client().fetchOutbound(
      `${site.base}/big`,
      {},
      { sink: (chunk) => void (received += chunk.byteLength), maxResponseBytes: 1024 * 1024 },
    )
    expect(res.status).toBe(200)
    expect(received).toBe(64 * 1024)
    expect(res.body.byteLength).toBe(0)
  })

  it("keeps the client's cap without a sink, and the caller's cap with one", async () => {
    using site = startSite(() => new Response(new Uint8Array(64 * 1024)))
    const memory = await failure(client().fetchOutbound(`${site.base}/big`))
    expect(memory.extra).toMatchObject({ reason: 'too_large', limit: 1024 })
    const sink = await failure(
      client().fetchOutbound(`${site.base}/big`, {}, { sink: () => {}, maxResponseBytes: 4096 }),
    )
    expect(sink.extra).toMatchObject({ reason: 'too_large', limit: 4096 })
  })

  it('shows the status to onResponse before any byte reaches the sink', async () => {
    using site = startSite(() => new Response('error page', { status: 500 }))
    const chunks: Uint8Array[] = []
    const seen: number[] = []
    const err = await client()
      .fetchOutbound(
        `${site.base}/x`,
        {},
        {
          sink: (chunk) => void chunks.push(chunk),
          onResponse(status) {
            seen.push(status)
            throw new AppError('bad_request', `HTTP ${status}`)
          },
        },
      )
      .catch((e: unknown) => e)
    expect((err as Error).message).toBe('HTTP 500')
    expect(seen).toEqual([500])
    expect(chunks).toEqual([])
  })

  it("applies timeoutMs instead of the client's budget", async () => {
    using site = startSite(async () => {
      await Bun.sleep(1000)
      return new Response('late')
    })
    const err = await failure(client().fetchOutbound(`${site.base}/slow`, {}, { timeoutMs: 100 }))
    expect(err.extra).toMatchObject({ reason: 'timeout' })
    expect(err.message).toContain('100 ms')
  })
})
