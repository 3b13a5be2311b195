// A column of strings (titles by slot, tags by id) also kept as one UTF-8 buffer, one line per
// entry, so a literal substring search is a native Buffer.indexOf over contiguous memory (~5x
// faster than includes() over 100,000 scattered strings). Writes never rebuild it: a changed
// entry is marked stale and checked directly until enough pile up to rebuild on the next scan.

/** Stale entries tolerated before the next scan rebuilds the buffer. */
const MAX_STALE = 2048
const NEWLINE = 10

/** `values` is read, never written, here; the owner calls changed(i) after writing values[i]. */
export function createTextColumn(values: readonly string[]) {
  let bytes = Buffer.alloc(0)
  let starts = new Int32Array(0)
  let lines = 0
  const stale = new Set<number>()

  const rebuild = () => {
    bytes = Buffer.from(values.join('\n'))
    lines = values.length
    starts = new Int32Array(lines + 1)
    let at = 0
    for (let i = 1; i < lines; i++) {
      at = bytes.indexOf(NEWLINE, at) + 1
      starts[i] = at
    }
    starts[lines] = bytes.length + 1
    stale.clear()
  }

  const lineAt = (offset: number) => {
    let lo = 0
    let hi = lines - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /** Builds the buffer when it is due; after a bulk load, call it before the first search. */
  const prepare = () => {
    if (stale.size + values.length - lines > MAX_STALE || lines === 0) rebuild()
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
      while ((at = bytes.indexOf(needle, at)) !== -1) {
        const line = lineAt(at)
        if (!stale.has(line)) out.push(line)
        at = starts[line + 1]!
      }
      for (const index of stale) if (values[index]!.includes(text)) out.push(index)
      for (let index = lines; index < values.length; index++)
        if (values[index]!.includes(text)) out.push(index)
      return out
    },
  }
}
