import { describe, expect, it } from 'bun:test'
import { HIDDEN_PATH, publicReason } from '../../src/jobs/public-reason.ts'

const roots = { contentDir: '/srv/tankobun/content' }

describe('publicReason', () => {
  it('keeps the errno reason of a system error on a data folder file, without its path', () => {
    expect(
      publicReason(
        "ENOENT: no such file or directory, open '/srv/tankobun/data/thumbs/ab/x.webp.tmp-1'",
        roots,
      ),
    ).toBe('ENOENT: no such file or directory')
    expect(
      publicReason("ENOENT: no such file or directory, rename '/srv/d/a.tmp' -> '/srv/d/a'", roots),
    ).toBe('ENOENT: no such file or directory')
  })

  it('shows a content folder path relative to the content folder', () => {
    expect(
      publicReason(
        "EACCES: permission denied, open '/srv/tankobun/content/My Series/Vol 1.cbz'",
        roots,
      ),
    ).toBe("EACCES: permission denied, open 'My Series/Vol 1.cbz'")
    expect(publicReason('cannot open /srv/tankobun/content/a/b.cbz: bad header.', roots)).toBe(
      'cannot open a/b.cbz: bad header.',
    )
  })

  it('hides any other absolute path, quoted or bare, POSIX or Windows', () => {
    expect(publicReason('undecodable image: Input file "/tmp/x/y.png" is missing', roots)).toBe(
      `undecodable image: Input file ${HIDDEN_PATH} is missing`,
    )
    expect(publicReason('cannot read /var/lib/other/file.', roots)).toBe(
      `cannot read ${HIDDEN_PATH}.`,
    )
    expect(publicReason('C:\\Users\\me\\a.cbz is locked')).toBe(`${HIDDEN_PATH} is locked`)
    // Without a content folder to relate to, a content path is hidden too.
    expect(publicReason("ENOENT: no such file, open '/srv/tankobun/content/a.cbz'")).toBe(
      'ENOENT: no such file',
    )
  })

  it('leaves messages without server paths alone', () => {
    for (const message of [
      'Page 3/5 does not exist in this archive.',
      'fetch https://example.com/a/b failed',
      'Archive 0123 no longer exists.',
      "ENOENT: no such file or directory, open 'relative/x.cbz'",
      'see /api',
    ])
      expect(publicReason(message, roots)).toBe(message)
  })
})
