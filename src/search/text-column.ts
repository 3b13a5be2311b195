// A column of strings (titles by slot, tags by id) also kept as one UTF-8 buffer, one line per
// entry, so a literal substring search is a native Buffer.indexOf over contiguous memory (~5x
// faster than includes() over 100,000 scattered strings). Writes never rebuild it: a changed
// entry is marked stale and checked directly until enough pile up to rebuild on the next scan.

/** Stale entries tolerated before the next scan rebuilds the buffer. */
const MAX_STALE = 2048
/** Entries joined per piece while rebuilding: the strings of a piece are garbage right after. */
const PIECE = 4096
const NEWLINE = 10

/**
 * `valueOf(i)` is entry i's text (it may be computed on each call: the buffer is the copy kept),
 * `count()` the number of entries; the owner calls changed(i) after entry i changed.
 */
export function createTextColumn(valueOf: (index: number) => string, count: () => number) {
  let bytes = Buffer.alloc(0)
  let starts = new Int32Array(0)
  let lines = 0
  const stale = new Set<number>()

  const rebuild = () => {
    lines = count()
    const pieces: Buffer[] = []
    const piece: string[] = []
    for (let begin = 0; begin < lines; begin += PIECE) {
      const end = Math.min(lines, begin + PIECE)
      piece.length = 0
      for (let i = begin; i < end; i++) piece.push(valueOf(i))
      pieces.push(Buffer.from(piece.join('\n') + (end < lines ? '\n' : '')))
    }
    bytes = Buffer.concat(pieces)
    starts = new Int32Array(lines + 1)
    let at = 0
    for (let i = 1; i < lines; i++) {
      at = bytes.indexOf(NEWLINE, at) + 1
      starts[i] = at
    }
    starts[lines] = bytes.length + 1
    stale.clear()
  }

  /**
   * The line holding byte `offset`, searched from line `from` on (hits come in order): a gallop
   * then a binary search. A frequent word hits every other line, so the next hit's line is
   * usually a step or two on, where a binary search over every line took ~20 probes per hit.
   */
  const lineAt = (offset: number, from: number) => {
    let lo = from
    let step = 1
    let hi = from + 1
    while (hi < lines && starts[hi]! <= offset) {
      lo = hi
      step *= 2
      hi = Math.min(lines, lo + step)
    }
    hi = Math.min(hi, lines) - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /** Builds the buffer when it is due; after a bulk load, call it before the first search. */
  const prepare = () => {
    if (stale.size + count() - lines > MAX_STALE || lines === 0) rebuild()
  }

  return {
    prepare,

    changed(index: number) {
      if (index < lines) stale.add(index)
    },

    /** Indices of the entries containing `text` (lower-cased like the entries). */
    containing(text: string): number[] {
      prepare()
      const out: number[] = []
      if (text.includes('\n')) return out
      const needle = Buffer.from(text)
      let at = 0
      let line = 0
      const fresh = stale.size === 0
      while ((at = bytes.indexOf(needle, at)) !== -1) {
        line = lineAt(at, line)
        if (fresh || !stale.has(line)) out.push(line)
        at = starts[line + 1]!
      }
      for (const index of stale) if (valueOf(index).includes(text)) out.push(index)
      for (let index = lines, n = count(); index < n; index++)
        if (valueOf(index).includes(text)) out.push(index)
      return out
    },
  }
}
