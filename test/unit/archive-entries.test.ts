import { describe, expect, it } from 'bun:test'
import { AppError } from '../../src/errors.ts'
import { isPageName, selectPages, unsafeReason } from '../../src/archive/entries.ts'
import { detectFormatOf } from '../../src/archive/format.ts'
import { buildRar4, buildTar, buildZip } from '../helpers/fixtures.ts'

const files = (...names: string[]) => names.map((name) => ({ name, isDirectory: false }))

function refusal(run: () => unknown): AppError {
  try {
    run()
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected a refusal')
}

describe('unsafeReason', () => {
  it.each([
    ['../x.jpg', 'parent segment'],
    ['a/../../x.jpg', 'parent segment'],
    ['a\\..\\x.jpg', 'parent segment'],
    ['/etc/x.jpg', 'absolute path'],
    ['\\x.jpg', 'absolute path'],
    ['C:/x.jpg', 'drive letter'],
    ['c:x.jpg', 'drive letter'],
    ['a\0.jpg', 'NUL byte'],
  ])('refuses %j (%s)', (name, reason) => {
    expect(unsafeReason(name)).toBe(reason)
  })

  it.each(['a.jpg', 'dir/a.jpg', 'a..b.jpg', '..a/b.jpg', 'dir/./a.jpg'])('accepts %j', (name) => {
    expect(unsafeReason(name)).toBeNull()
  })
})

describe('isPageName', () => {
  it.each(['a.jpg', 'a.JPEG', 'b/c.png', 'x.gif', 'x.webp', 'x.avif', 'x.bmp', 'x.jxl'])(
    'keeps %j',
    (name) => expect(isPageName(name)).toBe(true),
  )
  it.each(['ComicInfo.xml', 'dir/', 'jpg', '.jpg', '__MACOSX/a.jpg', 'a/._b.jpg', '.hidden/a.jpg'])(
    'skips %j',
    (name) => expect(isPageName(name)).toBe(false),
  )
})

describe('selectPages', () => {
  it('orders pages naturally on the full path', () => {
    const names = files('p10.jpg', 'b/p1.jpg', 'p2.jpg', 'P1.jpg', 'a/p9.jpg', 'a/p10.jpg')
    const pages = selectPages(names)
    expect(pages).toEqual(['a/p9.jpg', 'a/p10.jpg', 'b/p1.jpg', 'P1.jpg', 'p2.jpg', 'p10.jpg'])
  })

  it("sorts as LANraragi's expand and cmp do: digits padded to four, ASCII lowercased, code points", () => {
    const pages = selectPages(files('page_02.png', 'page-01.png', 'f1.png', 'été.png', 'Z.png'))
    expect(pages).toEqual(['f1.png', 'page-01.png', 'page_02.png', 'Z.png', 'été.png'])
    const marks = selectPages(files('a b/p?3.png', 'a b/p#2.png', 'a b/p 1.png'))
    expect(marks).toEqual(['a b/p 1.png', 'a b/p#2.png', 'a b/p?3.png'])
  })

  it('keeps the archive order of names with one key (007 and 7, A and a), and pads past four digits', () => {
    expect(selectPages(files('007.jpg', 'A.jpg', '7.jpg', 'a.jpg'))).toEqual([
      '007.jpg',
      '7.jpg',
      'A.jpg',
      'a.jpg',
    ])
    expect(selectPages(files('7.jpg', '007.jpg'))).toEqual(['7.jpg', '007.jpg'])
    expect(selectPages(files('12345.jpg', '998.jpg', '1000.jpg'))).toEqual([
      '998.jpg',
      '1000.jpg',
      '12345.jpg',
    ])
  })

  it('drops directories, non-images and resource forks', () => {
    const pages = selectPages([
      { name: 'ch1/', isDirectory: true },
      ...files('ch1/1.png', 'notes.txt', '__MACOSX/ch1/._1.png', '.DS_Store'),
    ])
    expect(pages).toEqual(['ch1/1.png'])
  })

  it('refuses the whole archive when one name is unsafe', () => {
    const err = refusal(() => selectPages(files('1.jpg', 'ok/../../evil.txt')))
    expect(err.code).toBe('unprocessable')
    expect(err.message).toStartWith('unsafe entry name: ')
  })
})

describe('detectFormatOf', () => {
  it('reads magic bytes, not extensions', () => {
    const page = { name: 'a.jpg', data: new Uint8Array([1, 2, 3]) }
    expect(detectFormatOf(buildZip([page]))).toBe('zip')
    expect(detectFormatOf(buildZip([]))).toBe('zip')
    expect(detectFormatOf(buildRar4([page]))).toBe('rar')
    expect(detectFormatOf(buildTar([page]))).toBe('tar')
    expect(detectFormatOf(new Uint8Array([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]))).toBe('7z')
    expect(detectFormatOf(new Uint8Array([0x1f, 0x8b, 8, 0]))).toBe('tar.gz')
    expect(detectFormatOf(new TextEncoder().encode('BZh91AY'))).toBe('tar.bz2')
    expect(detectFormatOf(new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0]))).toBe('tar.xz')
  })

  it('recognises a v7 tar by its header checksum, and nothing in junk', () => {
    const tar = buildTar([{ name: 'a.jpg', data: new Uint8Array(3) }])
    tar.fill(0, 257, 265) // erase the ustar magic
    let sum = 0
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : tar[i]!
    tar.set(new TextEncoder().encode(sum.toString(8).padStart(6, '0') + '\0 '), 148)
    expect(detectFormatOf(tar)).toBe('tar')
    expect(detectFormatOf(new TextEncoder().encode('just some text'.repeat(50)))).toBeNull()
    expect(detectFormatOf(new Uint8Array(0))).toBeNull()
  })
})
