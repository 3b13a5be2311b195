import { describe, expect, it } from 'bun:test'
import { AppError } from '../../src/errors.ts'
import { createOutboundFetch, MAX_REDIRECTS, type OutboundConfig } from '../../src/net/fetch.ts'
import { createVirtualClock } from '../helpers/virtual-clock.ts'

// Local sites on 127.0.0.1 only; fake names resolve there through the injected resolver, so no
// request ever leaves loopback.
type Site = { port: number; origin: (host?: string) => string; [Symbol.dispose](): void }

function startSite(handle: (req: Request, site: Site) => Response | Promise<Response>): Site {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req) => handle(req, site),
  })
  const site: Site = {
    port: server.port!,
    origin: (host = '127.0.0.1') => `http://${host}:${server.port}`,
    [Symbol.dispose]: () => void server.stop(true),
  }
  return site
}

const toLoopback = async (host: string) => {
  if (host.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }]
  throw new Error(`ENOTFOUND ${host}`)
}

function client(extra: Partial<OutboundConfig> = {}) {
  return createOutboundFetch({
    allowPrivate: ['*.test', '127.0.0.1'],
    maxResponseBytes: 1024 * 1024,
    timeoutMs: 5000,
    resolve: toLoopback,
    ...extra,
  })
}

async function failure(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  return err as AppError
}

describe('fetchOutbound', () => {
  it('fetches from an allow-listed local site, connecting to the checked address with the Host kept', async () => {
    using site = startSite((req) =>
      Response.json({ host: req.headers.get('host'), method: req.method }),
    )
    const { fetchOutbound } = client()
    const res = await fetchOutbound(`${site.origin('site.test')}/x`)
    expect(res.status).toBe(200)
    expect(JSON.parse(new TextDecoder().decode(res.body))).toEqual({
      host: `site.test:${site.port}`,
      method: 'GET',
    })
    expect(res.url).toBe(`${site.origin('site.test')}/x`)
    expect(res.matchedPattern).toBeUndefined()
    expect(res.bytesPerSec).toBeUndefined()
  })

  it('refuses loopback, private and metadata targets without the allow list', async () => {
    let hits = 0
    using site = startSite(() => {
      hits++
      return new Response('no')
    })
    const { fetchOutbound } = client({ allowPrivate: [] })
    for (const url of [
      site.origin(),
      `http://localhost:${site.port}/`,
      `http://[::1]:${site.port}/`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://10.0.0.1/`,
      `http://metadata.google.internal/`,
      `http://[::ffff:127.0.0.1]:${site.port}/`,
      `http://2130706433:${site.port}/`,
      `${site.origin('rebound.test')}/`,
    ]) {
      const err = await failure(fetchOutbound(url))
      expect([url, err.code, err.extra?.reason]).toEqual([url, 'forbidden', 'private_address'])
    }
    expect(hits).toBe(0)
  })

  it('refuses a redirect from an allowed name to a loopback address that is not allowed', async () => {
    using site = startSite(() => Response.redirect(`http://127.0.0.2:${site.port}/`, 302))
    const { fetchOutbound } = client({ allowPrivate: ['site.test'] })
    const err = await failure(fetchOutbound(`${site.origin('site.test')}/`))
    expect([err.code, err.extra?.reason]).toEqual(['forbidden', 'private_address'])
    expect(err.message).toContain('127.0.0.2')
  })

  it('refuses schemes other than http and https', async () => {
    const { fetchOutbound } = client()
    for (const url of ['file:///etc/passwd', 'ftp://site.test/', 'data:text/plain,hi']) {
      const err = await failure(fetchOutbound(url))
      expect([url, err.extra?.reason]).toEqual([url, 'scheme'])
    }
    expect((await failure(fetchOutbound('not a url'))).code).toBe('bad_request')
  })

  it('keeps a caller to its allowed hosts, on the first URL and on every redirect', async () => {
    using site = startSite((req) => {
      const path = new URL(req.url).pathname
      if (path === '/away') return Response.redirect(`${site.origin('other.test')}/`, 302)
      if (path === '/stay') return Response.redirect(`${site.origin('b.example.test')}/ok`, 302)
      return new Response('ok')
    })
    const { fetchOutbound } = client()
    const allowedHosts = ['*.example.test']
    const first = await failure(
      fetchOutbound(`${site.origin('other.test')}/`, {}, { allowedHosts }),
    )
    expect([first.code, first.extra?.reason]).toEqual(['forbidden', 'host_not_allowed'])
    const hop = await failure(
      fetchOutbound(`${site.origin('a.example.test')}/away`, {}, { allowedHosts }),
    )
    expect(hop.extra?.reason).toBe('host_not_allowed')
    const ok = await fetchOutbound(`${site.origin('a.example.test')}/stay`, {}, { allowedHosts })
    expect([ok.status, ok.url]).toEqual([200, `${site.origin('b.example.test')}/ok`])
  })

  it(`follows at most ${MAX_REDIRECTS} redirects`, async () => {
    using site = startSite((req) => {
      const n = Number(new URL(req.url).pathname.slice(1))
      return n > 0 ? Response.redirect(`/${n - 1}`, 302) : new Response('end')
    })
    const { fetchOutbound } = client()
    const ok = await fetchOutbound(`${site.origin('site.test')}/${MAX_REDIRECTS}`)
    expect(new TextDecoder().decode(ok.body)).toBe('end')
    expect(ok.url).toBe(`${site.origin('site.test')}/0`)
    const err = await failure(fetchOutbound(`${site.origin('site.test')}/${MAX_REDIRECTS + 1}`))
    expect([err.code, err.extra?.reason]).toEqual(['unprocessable', 'too_many_redirects'])
  })

  it('turns a POST into a GET on 303 and drops credentials on a redirect to another origin', async () => {
    const seen: { host: string | null; method: string; auth: string | null; body: string }[] = []
    using site = startSite(async (req) => {
      seen.push({
        host: req.headers.get('host'),
        method: req.method,
        auth: req.headers.get('authorization'),
        body: await req.text(),
      })
      if (new URL(req.url).pathname === '/form')
        return Response.redirect(`${site.origin('other.test')}/done`, 303)
      return new Response('done')
    })
    const { fetchOutbound } = client()
    await fetchOutbound(`${site.origin('site.test')}/form`, {
      method: 'POST',
      body: 'a=1',
      headers: { authorization: 'Bearer secret', 'content-type': 'text/plain' },
    })
    expect(seen).toEqual([
      { host: `site.test:${site.port}`, method: 'POST', auth: 'Bearer secret', body: 'a=1' },
      { host: `other.test:${site.port}`, method: 'GET', auth: null, body: '' },
    ])
  })

  it('cuts a response over the size cap, announced or not', async () => {
    const big = new Uint8Array(300 * 1024)
    using site = startSite((req) => {
      if (new URL(req.url).pathname === '/announced') return new Response(big)
      // No Content-Length: the body is cut while it streams.
      return new Response(
        new ReadableStream({
          async pull(controller) {
            controller.enqueue(new Uint8Array(64 * 1024))
            await Bun.sleep(1)
          },
        }),
      )
    })
    const { fetchOutbound } = client({ maxResponseBytes: 200 * 1024 })
    for (const path of ['/announced', '/streamed']) {
      const err = await failure(fetchOutbound(`${site.origin('site.test')}${path}`))
      expect([path, err.code, err.extra?.reason]).toEqual([path, 'unprocessable', 'too_large'])
      expect(err.message).toContain(String(200 * 1024))
    }
    const tighter = await failure(
      fetchOutbound(`${site.origin('site.test')}/announced`, {}, { maxResponseBytes: 1000 }),
    )
    expect(tighter.extra?.limit).toBe(1000)
  })

  it('gives up after the timeout', async () => {
    using site = startSite(async () => {
      await Bun.sleep(2000)
      return new Response('late')
    })
    const { fetchOutbound } = client({ timeoutMs: 200 })
    const err = await failure(fetchOutbound(`${site.origin('site.test')}/`))
    expect([err.code, err.extra?.reason]).toEqual(['unprocessable', 'timeout'])
  })

  it('gives up on a body that stalls after its first bytes', async () => {
    // The body stays stalled until the client has given up: only its own timeout can end it.
    const { promise: resumed, resolve: resume } = Promise.withResolvers<void>()
    let closed = false
    using site = startSite(
      () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              controller.enqueue(new Uint8Array(10))
              await resumed
              closed = true
              controller.close()
            },
          }),
        ),
    )
    const { fetchOutbound } = client({ timeoutMs: 300 })
    const err = await failure(fetchOutbound(`${site.origin('site.test')}/`))
    expect(err.extra?.reason).toBe('timeout')
    expect(closed).toBe(false)
    resume()
  })

  it('reports progress and can hand the body to a sink', async () => {
    using site = startSite(() => new Response(new Uint8Array(100_000)))
    const { fetchOutbound } = client()
    const progress: [number, number | undefined][] = []
    let sunk = 0
    const res = await fetchOutbound(
      `${site.origin('site.test')}/`,
      {},
      { onProgress: (r, t) => progress.push([r, t]), sink: (chunk) => void (sunk += chunk.length) },
    )
    expect(res.body.length).toBe(0)
    expect(sunk).toBe(100_000)
    expect(progress.at(-1)).toEqual([100_000, 100_000])
  })

  it('holds a transfer to its rule rate (200 KB/s within 10%) and reports the rule', async () => {
    const size = 600_000
    using site = startSite(() => new Response(new Uint8Array(size)))
    // The bucket paces by this clock: the rate is read off it, whatever the machine's load.
    const clock = createVirtualClock()
    const { fetchOutbound, ruleFor } = client({
      rules: [{ pattern: 'site.test', bytesPerSec: 200_000 }, { pattern: '*' }],
      paceClock: clock,
    })
    expect(ruleFor(`${site.origin('site.test')}/`)).toEqual({
      pattern: 'site.test',
      bytesPerSec: 200_000,
      maxConcurrency: undefined,
    })
    const started = clock.now()
    const res = await fetchOutbound(`${site.origin('site.test')}/`)
    const seconds = (clock.now() - started) / 1000
    expect(res.body.length).toBe(size)
    expect([res.matchedPattern, res.bytesPerSec]).toEqual(['site.test', 200_000])
    const rate = size / seconds
    expect(rate).toBeGreaterThan(180_000)
    expect(rate).toBeLessThan(220_000)
  })

  it('keeps requests under a rule to its max_concurrency, as the server sees them', async () => {
    let inFlight = 0
    let most = 0
    using site = startSite(async () => {
      most = Math.max(most, ++inFlight)
      await Bun.sleep(60)
      inFlight--
      return new Response('x')
    })
    const { fetchOutbound } = client({ rules: [{ pattern: '*.test', maxConcurrency: 2 }] })
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => fetchOutbound(`${site.origin(`h${i}.test`)}/`)),
    )
    expect(results.map((r) => [r.status, r.matchedPattern])).toEqual(
      Array.from({ length: 6 }, () => [200, '*.test']),
    )
    expect(most).toBe(2)
  })
})
