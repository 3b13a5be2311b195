// The wizard's store of started generations: single use, expiry, a bounded count, the size cap.
import { describe, expect, it } from 'bun:test'
import { AppError } from '../../src/errors.ts'
import { createGenerationStore } from '../../src/domain/wizard/generations.ts'
import { stripCodeFences } from '../../src/domain/wizard/check-source.ts'

describe('createGenerationStore', () => {
  it('answers a stored request once, as given', () => {
    const store = createGenerationStore()
    const request = { type: 'metadata', description: 'x', extra: [1, { a: null }] }
    const id = store.put(request)
    expect(store.take(id)).toEqual(request)
    expect(store.take(id)).toBeUndefined()
  })

  it('forgets a request past its expiry', () => {
    let now = 1_000
    const store = createGenerationStore({ ttlMs: 100, now: () => now })
    const id = store.put({ a: 1 })
    now += 100
    expect(store.take(id)).toBeUndefined()
    expect(store.size).toBe(0)
  })

  it('drops the oldest request when full', () => {
    const store = createGenerationStore({ max: 2 })
    const first = store.put({ n: 1 })
    const second = store.put({ n: 2 })
    const third = store.put({ n: 3 })
    expect(store.size).toBe(2)
    expect(store.take(first)).toBeUndefined()
    expect(store.take(second)).toEqual({ n: 2 })
    expect(store.take(third)).toEqual({ n: 3 })
  })

  it('refuses what is not a JSON object (400) and a body past the cap (413)', () => {
    const store = createGenerationStore()
    for (const bad of [null, 'text', [1], 3]) {
      const error = (() => {
        try {
          store.put(bad)
        } catch (e) {
          return e
        }
      })() as AppError
      expect(error.status).toBe(400)
    }
    expect(() => store.put({ d: 'x'.repeat(65 * 1024) })).toThrow(/at most 64 KiB/)
  })
})

describe('stripCodeFences', () => {
  it('keeps the first fenced block, without the prose around it', () => {
    expect(stripCodeFences('Here:\n```ts\nconst a = 1\n```\nThen:\n```\nother\n```')).toBe(
      'const a = 1\n',
    )
  })

  it('keeps what follows an unclosed fence (an answer cut short)', () => {
    expect(stripCodeFences('```typescript\nconst a = 1\nconst b')).toBe('const a = 1\nconst b\n')
  })

  it('takes an answer without fences whole', () => {
    expect(stripCodeFences('  export const x = 1  ')).toBe('export const x = 1\n')
  })

  it('does not end a block at a shorter fence inside it', () => {
    expect(stripCodeFences('````md\na\n```\nb\n````')).toBe('a\n```\nb\n')
  })
})
