import { describe, expect, it } from 'bun:test'
import { AppError } from '../../src/errors.ts'
import { createDomainLimits, matchRule, parseDomainRules } from '../../src/net/domain-rules.ts'
import { createVirtualClock } from '../helpers/virtual-clock.ts'

describe('matchRule', () => {
  const rules = [
    { pattern: '*' },
    { pattern: '*.example.com' },
    { pattern: '*.cdn.example.com' },
    { pattern: 'img.cdn.example.com' },
  ]

  it('prefers the exact host, then the longest wildcard, then *', () => {
    expect(matchRule(rules, 'img.cdn.example.com')?.pattern).toBe('img.cdn.example.com')
    expect(matchRule(rules, 'IMG.CDN.EXAMPLE.COM.')?.pattern).toBe('img.cdn.example.com')
    expect(matchRule(rules, 'a.cdn.example.com')?.pattern).toBe('*.cdn.example.com')
    expect(matchRule(rules, 'www.example.com')?.pattern).toBe('*.example.com')
    expect(matchRule(rules, 'example.com')?.pattern).toBe('*')
    expect(matchRule(rules, 'other.org')?.pattern).toBe('*')
    expect(matchRule(rules.slice(1), 'other.org')).toBeUndefined()
  })
})

describe('parseDomainRules', () => {
  it('reads the wire shape into rules', () => {
    expect(
      parseDomainRules([
        { pattern: 'Example.com', max_concurrency: 2, bytes_per_sec: 1000 },
        { pattern: '*.example.org' },
        { pattern: '*', bytes_per_sec: null },
      ]),
    ).toEqual([
      { pattern: 'example.com', maxConcurrency: 2, bytesPerSec: 1000 },
      { pattern: '*.example.org' },
      { pattern: '*' },
    ])
  })

  it('refuses bad patterns, duplicates and non-positive limits', () => {
    for (const bad of [
      {},
      [{ pattern: 'a b' }],
      [{ pattern: 'http://x.com' }],
      [{ pattern: 'a.*.com' }],
      [{ pattern: 'x.com' }, { pattern: 'X.com' }],
      [{ pattern: 'x.com', bytes_per_sec: 0 }],
      [{ pattern: 'x.com', max_concurrency: 1.5 }],
      [{ pattern: 'x.com', max_concurrency: '2' }],
    ]) {
      let caught: unknown
      try {
        parseDomainRules(bad)
      } catch (err) {
        caught = err
      }
      expect(caught).toBeInstanceOf(AppError)
      expect((caught as AppError).code).toBe('bad_request')
    }
  })
})

describe('createDomainLimits', () => {
  it('reports the matched pattern and rate, and none for an unmatched host', async () => {
    const limits = createDomainLimits([{ pattern: '*.example.com', bytesPerSec: 5000 }])
    expect(limits.match('a.example.com')).toEqual({
      pattern: '*.example.com',
      bytesPerSec: 5000,
      maxConcurrency: undefined,
    })
    const lease = await limits.acquire('other.org')
    expect(lease.match).toBeUndefined()
    lease.release()
  })

  it('hands out at most max_concurrency slots per rule, in order, and frees them on release', async () => {
    const limits = createDomainLimits([{ pattern: '*', maxConcurrency: 2 }])
    const a = await limits.acquire('a.test')
    const b = await limits.acquire('b.test')
    const order: string[] = []
    const c = limits.acquire('c.test').then((l) => (order.push('c'), l))
    const d = limits.acquire('d.test').then((l) => (order.push('d'), l))
    await Bun.sleep(10)
    expect(order).toEqual([])
    a.release()
    a.release()
    const leaseC = await c
    await Bun.sleep(10)
    expect(order).toEqual(['c'])
    b.release()
    const leaseD = await d
    expect(order).toEqual(['c', 'd'])
    leaseC.release()
    leaseD.release()
  })

  it('gives up a wait for a slot when the signal aborts', async () => {
    const limits = createDomainLimits([{ pattern: '*', maxConcurrency: 1 }])
    const held = await limits.acquire('a.test')
    const controller = new AbortController()
    const waiting = limits.acquire('a.test', controller.signal)
    controller.abort(new Error('stop'))
    await expect(waiting).rejects.toThrow('stop')
    held.release()
    ;(await limits.acquire('a.test')).release()
  })

  it('shares one byte bucket among every request the rule matches', async () => {
    const clock = createVirtualClock()
    const limits = createDomainLimits([{ pattern: '*.test', bytesPerSec: 1_000_000 }], clock)
    const transfer = async (host: string) => {
      const lease = await limits.acquire(host)
      for (let i = 0; i < 10; i++) await lease.take(25_000)
      lease.release()
    }
    const started = clock.now()
    await Promise.all([transfer('a.test'), transfer('b.test')])
    // 500 KB at 1 MB/s: half a second together (a bucket each would take a quarter).
    expect(clock.now() - started).toBeGreaterThan(400)
  })

  it('keeps slots of a pattern across setRules and applies the new limit', async () => {
    const limits = createDomainLimits([{ pattern: 'x.test', maxConcurrency: 1 }])
    const held = await limits.acquire('x.test')
    let granted = false
    const next = limits.acquire('x.test').then((l) => ((granted = true), l))
    await Bun.sleep(5)
    expect(granted).toBe(false)
    limits.setRules([{ pattern: 'x.test', maxConcurrency: 2 }])
    ;(await next).release()
    expect(granted).toBe(true)
    held.release()
  })
})
