// The wizard's pieces without a server: the store of started generations (single use, expiry, a
// bounded count, the size cap), fence stripping and the page reader.
import { describe, expect, it } from 'bun:test'
import { AppError } from '../../src/errors.ts'
import { createGenerationStore } from '../../src/domain/wizard/generations.ts'
import { stripCodeFences } from '../../src/domain/wizard/check-source.ts'
import { readPage } from '../../src/domain/wizard/page-read.ts'

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

describe('readPage', () => {
  it('reads forms, links and headings from loose markup', () => {
    const page = readPage(
      `<TITLE>T &#x26; &quot;q&quot;</TITLE><H2 class="name big">Name</h2>
<form action="post.php" METHOD=POST><input type=password name=p><textarea name=t></textarea>
<SCRIPT>document.write("<a href='/x'>x</a>")</SCRIPT><a href=/y>y <b>bold</b></a></form>`,
      'https://example.com/dir/page',
    )
    expect(page.title).toBe('T & "q"')
    expect(page.headings).toEqual([{ tag: 'h2', selector: 'h2.name', text: 'Name' }])
    expect(page.links).toEqual([{ href: 'https://example.com/y', text: 'y bold' }])
    expect(page.forms).toEqual([
      {
        action: 'https://example.com/dir/post.php',
        method: 'POST',
        id: null,
        has_password: true,
        fields: [
          { name: 'p', type: 'password', required: false },
          { name: 't', type: 'textarea', required: false },
        ],
      },
    ])
  })

  it('reads hostile markup in one pass: unclosed comments, quotes, scripts and links', () => {
    const many = (part: string) => part.repeat(50_000)
    for (const markup of [
      many('<!--'),
      many('<a x="'),
      many('<script>'),
      many('<a href="/z">') + 'text',
    ]) {
      const page = readPage(markup, 'https://example.com/')
      expect(page.links.length).toBeLessThanOrEqual(60)
    }
  })
})
