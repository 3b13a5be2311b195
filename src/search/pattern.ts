// Turns a parsed text term into string tests for tags and titles (prefix, substring, exact,
// wildcards). Regular expressions only appear when the term holds a wildcard.
import type { TextTerm } from './query.ts'

export type StringTest = (value: string) => boolean

export type TermMatcher = {
  /** Tests one lower-cased tag (`namespace:value` or a plain tag). */
  tag: StringTest
  /** Tests one lower-cased title; null when the term never matches titles. */
  title: StringTest | null
  /** Literal text every matching tag starts with ('' when unknown): narrows the vocabulary. */
  tagPrefix: string
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/g

function toRegexSource(text: string): string {
  let out = ''
  for (const ch of text) {
    if (ch === '?' || ch === '_') out += '.'
    else if (ch === '*' || ch === '%') out += '.*'
    else out += ch.replace(REGEX_SPECIAL, '\\$&')
  }
  return out
}

function literalPrefix(text: string): string {
  const at = text.search(/[?_*%]/)
  return at === -1 ? text : text.slice(0, at)
}

function compile(term: TextTerm, mode: 'prefix' | 'substring' | 'exact'): StringTest {
  const text = term.text
  if (!term.wildcard) {
    if (mode === 'exact') return (v) => v === text
    if (mode === 'prefix') return (v) => v.startsWith(text)
    return (v) => v.includes(text)
  }
  const source = toRegexSource(text)
  const anchored = mode === 'exact' ? `^${source}$` : mode === 'prefix' ? `^${source}` : source
  const re = new RegExp(anchored, 'su')
  return (v) => re.test(v)
}

/** Value part of a lower-cased tag ('' for a plain tag). */
function tagValue(tag: string): string | null {
  const colon = tag.indexOf(':')
  return colon > 0 ? tag.slice(colon + 1).trim() : null
}

export function compileTerm(term: TextTerm): TermMatcher {
  if (term.exact) {
    const whole = compile(term, 'exact')
    // Without a namespace an exact term also names the value of a namespaced tag:
    // `touhou project$` finds `parody:touhou project`.
    const tag: StringTest = term.namespaced
      ? whole
      : (v) => {
          if (whole(v)) return true
          const value = tagValue(v)
          return value !== null && whole(value)
        }
    return {
      tag,
      title: term.quoted ? whole : null,
      tagPrefix: term.namespaced ? literalPrefix(term.text) : '',
    }
  }
  if (term.namespaced) {
    return { tag: compile(term, 'prefix'), title: compile(term, 'substring'), tagPrefix: literalPrefix(term.text) }
  }
  const substring = compile(term, 'substring')
  return { tag: substring, title: substring, tagPrefix: '' }
}
