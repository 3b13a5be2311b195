// The build's title sort: a million titles by natural order. Titles with a sort key (printable
// ASCII: model/natural-sort-key.ts) are sorted by the engine's native string sort; the others by
// the collator; then the two lists are merged. Same order as sorting everything with `compare`.
import { writeNaturalSortKey } from '../model/natural-sort-key.ts'

/**
 * `slots` sorted by `compare` (natural title order, then id), where `titleOf` gives each slot's
 * title and `compare` orders slots whose titles have equal keys (and every slot without one).
 */
export function sortByTitle(
  slots: readonly number[],
  titleOf: (slot: number) => string,
  compare: (a: number, b: number) => number,
): number[] {
  const keyed: string[] = []
  const others: number[] = []
  let bytes = Buffer.alloc(1024)
  for (const slot of slots) {
    const title = titleOf(slot)
    if (bytes.length < title.length * 3 + 16) bytes = Buffer.alloc(title.length * 3 + 16)
    let end = writeNaturalSortKey(title, bytes, 0)
    if (end < 0) {
      others.push(slot)
      continue
    }
    // A 0 byte sorts below every key byte: a key that is a prefix of another sorts first.
    bytes[end++] = 0
    end += bytes.write(slot.toString(36), end, 'latin1')
    keyed.push(bytes.toString('latin1', 0, end))
  }
  keyed.sort()
  const fast = new Array<number>(keyed.length)
  let runStart = 0
  let runKey = ''
  for (let i = 0; i <= keyed.length; i++) {
    const entry = keyed[i]
    const cut = entry === undefined ? -1 : entry.lastIndexOf('\u0000')
    const key = entry === undefined ? null : entry.slice(0, cut)
    if (key !== runKey || entry === undefined) {
      // Equal keys (same title at the collator's level): the full comparison orders the run.
      if (i - runStart > 1) sortRange(fast, runStart, i, compare)
      runStart = i
      runKey = key ?? ''
    }
    if (entry !== undefined) fast[i] = parseInt(entry.slice(cut + 1), 36)
  }
  if (others.length === 0) return fast
  others.sort(compare)
  return merge(fast, others, compare)
}

function sortRange(
  list: number[],
  start: number,
  end: number,
  compare: (a: number, b: number) => number,
) {
  const run = list.slice(start, end).sort(compare)
  for (let i = 0; i < run.length; i++) list[start + i] = run[i]!
}

function merge(a: number[], b: number[], compare: (x: number, y: number) => number): number[] {
  const out = new Array<number>(a.length + b.length)
  let i = 0
  let j = 0
  let n = 0
  while (i < a.length && j < b.length) out[n++] = compare(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!
  while (i < a.length) out[n++] = a[i++]!
  while (j < b.length) out[n++] = b[j++]!
  return out
}
