import { describe, expect, it } from 'bun:test'
import { compileGlob, globMatches } from '../../src/search/glob.ts'

const matches = (pattern: string, value: string) => globMatches(compileGlob(pattern), value)

/** The regular expression the glob stands for: the reference it must agree with. */
function reference(pattern: string, value: string): boolean {
  let source = ''
  for (const ch of pattern) {
    if (ch === '?' || ch === '_') source += '.'
    else if (ch === '*' || ch === '%') source += '.*'
    else source += ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
  }
  return new RegExp(`^${source}$`, 'su').test(value)
}

describe('globMatches', () => {
  it('anchors at both ends; ? and _ are one character, * and % any run', () => {
    expect(matches('abc', 'abc')).toBe(true)
    expect(matches('abc', 'abcd')).toBe(false)
    expect(matches('a?c', 'abc')).toBe(true)
    expect(matches('a_c', 'a c')).toBe(true)
    expect(matches('a?c', 'ac')).toBe(false)
    expect(matches('a*c', 'ac')).toBe(true)
    expect(matches('a%c', 'abbbc')).toBe(true)
    expect(matches('*shell*', 'ghost in the shell')).toBe(true)
    expect(matches('ghost*', 'ghost in the shell')).toBe(true)
    expect(matches('*ghost', 'ghost in the shell')).toBe(false)
    expect(matches('*', '')).toBe(true)
    expect(matches('?', '')).toBe(false)
  })

  it('does not let the last segment overlap an earlier one', () => {
    expect(matches('ab*ba', 'aba')).toBe(false)
    expect(matches('ab*ba', 'abba')).toBe(true)
    expect(matches('*aa*aa', 'aaa')).toBe(false)
  })

  it('reads ? as one code point, astral characters included', () => {
    expect(matches('a?b', 'a😀b')).toBe(true)
    expect(matches('a??b', 'a😀b')).toBe(false)
    expect(matches('*?b', '😀b')).toBe(true)
    expect(matches('東?', '東方')).toBe(true)
  })

  it('agrees with the regular expression it replaces', () => {
    const alphabet = ['a', 'b', '?', '*', '_', '%', '😀']
    const letters = ['a', 'b', '😀']
    let seed = 7
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (let round = 0; round < 5000; round++) {
      const draw = (from: string[], most: number) =>
        Array.from({ length: next(most) }, () => from[next(from.length)]).join('')
      const pattern = draw(alphabet, 7)
      const value = draw(letters, 8)
      const got = [pattern, value, matches(pattern, value)]
      expect(got).toEqual([pattern, value, reference(pattern, value)])
    }
  })

  it('answers at once where a backtracking regex would run for minutes', () => {
    // /^.*a.*a.*a.*a.*a.*a.*a.*a.*a.*a.*c.*$/ on 60 a's: exponential backtracking.
    expect(matches('*a*a*a*a*a*a*a*a*a*a*c*', 'a'.repeat(60))).toBe(false)
    expect(matches('*a?a?a?a?a?a?a?a?a?a*c', 'a'.repeat(5000))).toBe(false)
    expect(matches('*a*a*a*a*a*a*a*a*a*a*c*', `${'a'.repeat(60)}c`)).toBe(true)
  })
})
