// The model-free half of group suggestions: the title key that puts volumes together, and the
// stable suggestion key that ignoring relies on.
import { describe, expect, it } from 'bun:test'
import { groupKey, normalizeTitle } from '../../src/domain/collections/group-suggestions.ts'

describe('normalizeTitle', () => {
  it('strips volume and chapter marks, brackets, numbers and punctuation', () => {
    const key = 'blue sky'
    for (const title of [
      'Blue Sky Vol. 1',
      'Blue Sky vol 12',
      'Blue Sky v03',
      '[Circle] Blue Sky - Chapter 4 (English) [Digital]',
      'Blue_Sky_ch.5',
      'BLUE SKY #6',
      'Blue Sky 第3巻',
      'Blue Sky 07',
      'Ｂｌｕｅ Ｓｋｙ Part 2',
    ])
      expect({ title, key: normalizeTitle(title) }).toEqual({ title, key })
  })

  it('keeps what tells series apart', () => {
    expect(normalizeTitle('Blue Sky Vol. 1')).not.toBe(normalizeTitle('Blue Sea Vol. 1'))
    expect(normalizeTitle('進撃の巨人 第1巻')).toBe('進撃の巨人')
    expect(normalizeTitle('Vol. 1')).toBe('')
    // A number that is part of a word stays: "Level 5ive" is not volume 5.
    expect(normalizeTitle('Level 5ive Vol. 2')).toBe('level 5ive')
  })
})

describe('groupKey', () => {
  it('is the same for the same archives in any order or repetition, and differs otherwise', () => {
    const [a, b, c] = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)]
    expect(groupKey([a, b])).toBe(groupKey([b, a, a]))
    expect(groupKey([a, b])).toMatch(/^[0-9a-f]{32}$/)
    expect(groupKey([a, b])).not.toBe(groupKey([a, b, c]))
    expect(groupKey([a, c])).not.toBe(groupKey([a, b]))
  })
})
