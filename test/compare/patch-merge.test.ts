import { describe, expect, it } from 'bun:test'
import { mergePatchPages, PATCH_PAGE_PREFIX } from '../../src/domain/archives/patch.ts'

const p = (name: string) => PATCH_PAGE_PREFIX + name

describe('mergePatchPages', () => {
  const own = ['01.jpg', '02.jpg', '03.jpg']

  it('places pages after or before their anchors, in manifest order per anchor', () => {
    const merged = mergePatchPages(own, {
      pages: [
        { name: 'x.jpg', after_filename: '01.jpg' },
        { name: 'y.jpg', before_filename: '03.jpg' },
        { name: 'z.jpg', after_filename: '01.jpg' },
        { name: 'w.jpg', before_filename: '01.jpg' },
      ],
    })
    expect(merged).toEqual([
      p('w.jpg'),
      '01.jpg',
      p('x.jpg'),
      p('z.jpg'),
      '02.jpg',
      p('y.jpg'),
      '03.jpg',
    ])
  })

  it('prefers after_filename, falls back to before_filename, and puts pages with no anchor left last', () => {
    const merged = mergePatchPages(own, {
      pages: [
        { name: 'a.jpg', after_filename: 'gone.jpg', before_filename: '02.jpg' },
        { name: 'b.jpg', after_filename: 'gone.jpg' },
        { name: 'c.jpg', after_filename: '03.jpg', before_filename: '01.jpg' },
      ],
    })
    expect(merged).toEqual(['01.jpg', p('a.jpg'), '02.jpg', '03.jpg', p('c.jpg'), p('b.jpg')])
  })
})
