import { describe, expect, it } from 'bun:test'
import { distinctTerms, parseFilter, type Term, type TextTerm } from '../../src/search/query.ts'
import { compileTerm, testString, testTag } from '../../src/search/pattern.ts'

const texts = (filter: string) =>
  parseFilter(filter).map((t) => (t.kind === 'text' ? t.text : `#${t.field}`))
const only = (filter: string): TextTerm => {
  const terms = parseFilter(filter)
  expect(terms).toHaveLength(1)
  expect(terms[0]!.kind).toBe('text')
  return terms[0] as TextTerm
}
const flags = (t: Term) =>
  t.kind === 'text' ? { negated: t.negated, exact: t.exact, quoted: t.quoted } : null

describe('parseFilter', () => {
  it('separates terms by commas only: spaces belong to the term', () => {
    expect(texts('Ghost in the Shell, artist:masamune shirow')).toEqual([
      'ghost in the shell',
      'artist:masamune shirow',
    ])
  })

  it('trims leading and trailing spaces of each term and drops empty ones', () => {
    expect(texts('   a b  ,,  , c ,')).toEqual(['a b', 'c'])
    expect(parseFilter('')).toEqual([])
    expect(parseFilter(' , - , "" ,')).toEqual([])
  })

  it('folds case, Unicode included, and normalizes to NFC', () => {
    expect(texts('ÉCOLE, ΣΟΦΙΑ, 東方Project')).toEqual(['école', 'σοφια', '東方project'])
    expect(only('Cafe\u0301').text).toBe('caf\u00e9')
  })

  it('reads a leading - as exclusion', () => {
    const [a, b] = parseFilter('-artist:foo, - bar')
    expect(flags(a!)).toEqual({ negated: true, exact: false, quoted: false })
    expect((a as TextTerm).text).toBe('artist:foo')
    expect(flags(b!)!.negated).toBe(true)
    expect((b as TextTerm).text).toBe('bar')
  })

  it('keeps a - inside a term or inside quotes as text', () => {
    expect(only('spider-man').text).toBe('spider-man')
    const quoted = only('"-x"')
    expect(quoted.negated).toBe(false)
    expect(quoted.text).toBe('-x')
  })

  it('makes a quoted term exact, with commas and spaces inside it', () => {
    const t = only('"Hello, World"')
    expect(t).toMatchObject({ text: 'hello, world', exact: true, quoted: true, negated: false })
    const neg = only('-"a, b"')
    expect(neg).toMatchObject({ text: 'a, b', exact: true, negated: true })
  })

  it('accepts "..."$ and treats text after a closing quote as the next term', () => {
    expect(only('"artist:foo bar"$')).toMatchObject({
      text: 'artist:foo bar',
      exact: true,
      quoted: true,
    })
    expect(texts('"a" b, c')).toEqual(['a', 'b', 'c'])
  })

  it('runs an unterminated quote to the end of the filter', () => {
    expect(only('"abc, def')).toMatchObject({ text: 'abc, def', exact: true })
    expect(texts('x, "y')).toEqual(['x', 'y'])
  })

  it('makes a trailing $ an exact tag term that matches tags only', () => {
    const t = only('female:sole female$')
    expect(t).toMatchObject({
      text: 'female:sole female',
      exact: true,
      quoted: false,
      namespaced: true,
    })
    const neg = only('-language:english$')
    expect(neg).toMatchObject({ negated: true, exact: true })
  })

  it('flags namespaces and wildcards', () => {
    expect(only('artist:ab')).toMatchObject({ namespaced: true, wildcard: false })
    expect(only('ab')).toMatchObject({ namespaced: false, wildcard: false })
    for (const w of ['a?c', 'a_c', 'a*c', 'a%c']) expect(only(w).wildcard).toBe(true)
  })

  it('parses pages: and read: comparisons', () => {
    const terms = parseFilter('pages:>20, pages:<=30, read:0, read:>=5, pages:=7, -pages:<3')
    expect(terms).toEqual([
      { kind: 'number', negated: false, field: 'pagecount', op: '>', value: 20 },
      { kind: 'number', negated: false, field: 'pagecount', op: '<=', value: 30 },
      { kind: 'number', negated: false, field: 'progress', op: '=', value: 0 },
      { kind: 'number', negated: false, field: 'progress', op: '>=', value: 5 },
      { kind: 'number', negated: false, field: 'pagecount', op: '=', value: 7 },
      { kind: 'number', negated: true, field: 'pagecount', op: '<', value: 3 },
    ])
  })

  it("reads a number of any length, as LANraragi's \\d+ does", () => {
    expect(parseFilter('pages:<123456789012345678901')).toEqual([
      { kind: 'number', negated: false, field: 'pagecount', op: '<', value: 123456789012345678901 },
    ])
  })

  it('keeps malformed comparisons as ordinary tag terms', () => {
    expect(only('pages:abc')).toMatchObject({ kind: 'text', text: 'pages:abc', namespaced: true })
    expect(only('pages:>>2').kind).toBe('text')
  })

  it('keeps a repeated term once: 7,500 `a` terms are one term', () => {
    expect(parseFilter(Array(7500).fill('a').join(','))).toEqual(parseFilter('a'))
    expect(texts('A, a , "b", "B", x$, x$, pages:>2, pages:>2')).toEqual([
      'a',
      'b',
      'x',
      '#pagecount',
    ])
  })

  it('counts wildcards that match alike as one term: _ as ?, % as *, ** as *', () => {
    expect(texts('a_b, a?b, c%d, c*d, c**d, e***')).toEqual(['a_b', 'c%d', 'e***'])
  })

  it('keeps terms apart that differ in exclusion, exactness, quotes or comparison', () => {
    const terms = parseFilter('a, -a, a$, "a", -"a", pages:2, pages:>2, -pages:2, read:2')
    expect(terms).toHaveLength(9)
  })
})

describe('distinctTerms', () => {
  it('drops repeats across two parsed filters, keeping the first', () => {
    const merged = distinctTerms([
      ...parseFilter('a, -b, pages:3'),
      ...parseFilter('-b, pages:3, c'),
    ])
    expect(merged.map((t) => (t.kind === 'text' ? t.text : t.value))).toEqual(['a', 'b', 3, 'c'])
  })
})

describe('compileTerm', () => {
  const tag = (filter: string, value: string) => testTag(compileTerm(only(filter)), value)
  const title = (filter: string, value: string) => {
    const test = compileTerm(only(filter)).title
    return test !== null && testString(test, value)
  }

  it('matches a namespaced term as a prefix of the whole tag', () => {
    expect(tag('artist:ab', 'artist:abc')).toBe(true)
    expect(tag('artist:ab', 'artist:xab')).toBe(false)
    expect(tag('artist:ab', 'group:abc')).toBe(false)
  })

  it('matches a plain term anywhere in a tag or a title', () => {
    expect(tag('male', 'female:sole female')).toBe(true)
    expect(tag('artist', 'artist:someone')).toBe(true)
    expect(title('shell', 'ghost in the shell 2')).toBe(true)
  })

  it('matches an exact term against the whole tag, or the value for a plain term', () => {
    expect(tag('artist:ab$', 'artist:ab')).toBe(true)
    expect(tag('artist:ab$', 'artist:abc')).toBe(false)
    expect(tag('touhou project$', 'parody:touhou project')).toBe(true)
    expect(tag('touhou project$', 'parody:touhou project 2')).toBe(false)
  })

  it('matches quoted terms against the whole title, $ terms never against titles', () => {
    expect(title('"ghost in the shell"', 'ghost in the shell')).toBe(true)
    expect(title('"ghost in the shell"', 'ghost in the shell 2')).toBe(false)
    expect(compileTerm(only('ghost in the shell$')).title).toBeNull()
  })

  it('reads ? and _ as one character, * and % as any run, also inside quotes', () => {
    expect(tag('artist:a?c', 'artist:abc')).toBe(true)
    expect(tag('artist:a_c', 'artist:a c')).toBe(true)
    expect(tag('artist:a?c', 'artist:ac')).toBe(false)
    expect(tag('artist:a*d', 'artist:abcd')).toBe(true)
    expect(tag('artist:a%d', 'artist:ad')).toBe(true)
    expect(title('"g*l"', 'ghost in the shell')).toBe(true)
    expect(title('"g*x"', 'ghost in the shell')).toBe(false)
    expect(tag('"東?"', '東方')).toBe(true)
  })

  it('takes every other character literally (no regular expression escapes leak)', () => {
    expect(tag('c++', 'language:c++')).toBe(true)
    expect(tag('a.b', 'axb')).toBe(false)
    expect(tag('(c)', 'circle:(c) team')).toBe(true)
    expect(tag('[x]', 'x')).toBe(false)
    expect(tag('a\\d', 'a\\d')).toBe(true)
    expect(tag('a\\d', 'a1')).toBe(false)
    expect(tag('^a$x', '^a$x')).toBe(true)
    expect(tag('a.*?b', 'axyzb')).toBe(false)
    expect(tag('a.*?b', 'a.xyzzb')).toBe(true)
  })
})
