// Turns a parsed text term into string tests for tags and titles (prefix, substring, exact,
// wildcards). Tests are plain data, and the loops over many strings are written out per kind:
// calling a fresh closure per string is several times slower than an inlined includes().
import { compileGlob, globMatches, type Glob } from './glob.ts'
import type { TextTerm } from './query.ts'

export type StringTest =
  | { kind: 'equals' | 'prefix' | 'substring'; text: string }
  | { kind: 'glob'; text: string; glob: Glob }

export type TermMatcher = {
  /** Test for one lower-cased tag (`namespace:value` or a plain tag). */
  tag: StringTest
  /** Exact term without a namespace: the tag's value may match instead of the whole tag. */
  tagValueToo: boolean
  /** Test for one lower-cased title; null when the term never matches titles. */
  title: StringTest | null
  /** Literal text every matching tag starts with ('' when unknown): narrows the vocabulary. */
  tagPrefix: string
}

function literalPrefix(text: string): string {
  const at = text.search(/[?_*%]/)
  return at === -1 ? text : text.slice(0, at)
}

function compile(term: TextTerm, kind: 'equals' | 'prefix' | 'substring'): StringTest {
  if (!term.wildcard) return { kind, text: term.text }
  // Every wildcard test is a whole-value glob: a prefix is `text*`, a substring `*text*`.
  const text = term.text
  const pattern = kind === 'equals' ? text : kind === 'prefix' ? `${text}*` : `*${text}*`
  return { kind: 'glob', text: term.text, glob: compileGlob(pattern) }
}

export function testString(test: StringTest, value: string): boolean {
  switch (test.kind) {
    case 'equals':
      return value === test.text
    case 'prefix':
      return value.startsWith(test.text)
    case 'substring':
      return value.includes(test.text)
    case 'glob':
      return globMatches(test.glob, value)
  }
}

/** Value part of a lower-cased tag, or null for a plain tag. */
function tagValue(tag: string): string | null {
  const colon = tag.indexOf(':')
  return colon > 0 ? tag.slice(colon + 1).trim() : null
}

export function testTag(matcher: TermMatcher, tag: string): boolean {
  if (testString(matcher.tag, tag)) return true
  if (!matcher.tagValueToo) return false
  const value = tagValue(tag)
  return value !== null && testString(matcher.tag, value)
}

/** Indices `i` (all of `values`, or those listed in `only`) whose `values[i]` passes the test. */
export function matchingIndices(
  values: readonly string[],
  test: StringTest,
  only?: ArrayLike<number>,
): number[] {
  const out: number[] = []
  const text = test.text
  const n = only ? only.length : values.length
  switch (test.kind) {
    case 'substring':
      for (let k = 0; k < n; k++) {
        const i = only ? only[k]! : k
        if (values[i]!.includes(text)) out.push(i)
      }
      return out
    case 'prefix':
      for (let k = 0; k < n; k++) {
        const i = only ? only[k]! : k
        if (values[i]!.startsWith(text)) out.push(i)
      }
      return out
    case 'equals':
      for (let k = 0; k < n; k++) {
        const i = only ? only[k]! : k
        if (values[i] === text) out.push(i)
      }
      return out
    case 'glob': {
      const glob = test.glob
      for (let k = 0; k < n; k++) {
        const i = only ? only[k]! : k
        if (globMatches(glob, values[i]!)) out.push(i)
      }
      return out
    }
  }
}

export function compileTerm(term: TextTerm): TermMatcher {
  if (term.exact) {
    const whole = compile(term, 'equals')
    return {
      tag: whole,
      // `touhou project$` also finds `parody:touhou project`.
      tagValueToo: !term.namespaced,
      title: term.quoted ? whole : null,
      tagPrefix: term.namespaced ? literalPrefix(term.text) : '',
    }
  }
  if (term.namespaced) {
    return {
      tag: compile(term, 'prefix'),
      tagValueToo: false,
      title: compile(term, 'substring'),
      tagPrefix: literalPrefix(term.text),
    }
  }
  const substring = compile(term, 'substring')
  return { tag: substring, tagValueToo: false, title: substring, tagPrefix: '' }
}
