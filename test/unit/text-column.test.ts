// The title text column: a substring search over one buffer must find exactly the entries a
// plain includes() finds, for rare and frequent words, at either end, after edits and appends.
import { describe, expect, it } from 'bun:test'
import { createTextColumn } from '../../src/search/text-column.ts'

const naive = (values: string[], text: string) =>
  values.flatMap((value, i) => (value.includes(text) ? [i] : []))

describe('text column', () => {
  it('finds the same entries as includes(), however often the text occurs', () => {
    let seed = 11
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    const words = ['aa', 'nuyori', 'be', 'teka', 'zu', 'ö', '漫画']
    const values = Array.from({ length: 5000 }, () =>
      Array.from({ length: 1 + random(4) }, () => words[random(words.length)]).join(' '),
    )
    const column = createTextColumn(
      (i) => values[i]!,
      () => values.length,
    )
    for (const text of [...words, 'a', 'nuyori be', 'x', values[0]!, values.at(-1)!])
      expect({ text, found: column.containing(text).sort((a, b) => a - b) }).toEqual({
        text,
        found: naive(values, text),
      })
    // Edits (checked directly until the buffer is rebuilt) and entries added after the build.
    values[0] = 'edited first'
    values[4999] = 'edited last nuyori'
    column.changed(0)
    column.changed(4999)
    values.push('appended nuyori', 'appended')
    for (const text of ['edited', 'nuyori', 'appended', 'aa'])
      expect(column.containing(text).sort((a, b) => a - b)).toEqual(naive(values, text))
  })
})
