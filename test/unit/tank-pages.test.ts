import { describe, expect, it } from 'bun:test'
import {
  resolveGlobalPage,
  totalPages,
  type MemberPages,
} from '../../src/domain/collections/tank-pages.ts'

const pages = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${i + 1}.jpg`)
const members: MemberPages[] = [
  { archiveId: 'a', pages: pages('a', 3) },
  { archiveId: 'gone', pages: [] },
  { archiveId: 'b', pages: pages('b', 2) },
]

describe('resolveGlobalPage', () => {
  it('maps the last page of member 1 and the first page of member 2 across an empty member', () => {
    expect(resolveGlobalPage(members, 3)).toEqual({
      archiveId: 'a',
      localPage: 3,
      index: 0,
      offset: 0,
      filename: 'a3.jpg',
    })
    expect(resolveGlobalPage(members, 4)).toEqual({
      archiveId: 'b',
      localPage: 1,
      index: 2,
      offset: 3,
      filename: 'b1.jpg',
    })
    expect(resolveGlobalPage(members, 5)?.localPage).toBe(2)
  })

  it('rejects pages below 1, past the end, and non-integers', () => {
    expect(resolveGlobalPage(members, 0)).toBeUndefined()
    expect(resolveGlobalPage(members, 6)).toBeUndefined()
    expect(resolveGlobalPage(members, 1.5)).toBeUndefined()
    expect(resolveGlobalPage([], 1)).toBeUndefined()
  })
})

describe('totalPages', () => {
  it('counts every member page, an empty member adding none', () => {
    expect(totalPages(members)).toBe(5)
    const seen = Array.from({ length: 5 }, (_, i) => resolveGlobalPage(members, i + 1)!.filename)
    expect(seen).toEqual(['a1.jpg', 'a2.jpg', 'a3.jpg', 'b1.jpg', 'b2.jpg'])
  })
})
