// Every slot's id as ready JSON bytes of one fixed width, so an unpaged /api/search/ids answer
// (up to a million ids, ~21 MB) is a copy of 11 words per id instead of a string written per id:
// at a million archives with 488,000 matches the body took ~26 ms that way, ~5 ms this way.
// The answer is written into one buffer kept for the next answer: Bun copies a body into the
// Response anyway, and a fresh 21 MB buffer cost its page faults on every request (~10 ms).
//
// An entry is the id (at most MAX_ID characters), its closing quote, a comma, spaces, and the
// next id's opening quote: `0123…ef", "`. JSON allows the spaces, and 44 bytes keep every id on
// a 4-byte boundary of the answer, so entries copy as 32-bit words.

/** The longest id an entry holds: archive ids are 40 hex digits, Tankoubon ids TANK_ and digits. */
export const MAX_ID = 40
const WIDTH = 44
const WORDS = WIDTH / 4
const QUOTE = 34
const COMMA = 44
const SPACE = 32

type LatinWriter = { latin1Write(text: string, offset: number): number }

export function createIdColumn() {
  let words = new Uint32Array(1024 * WORDS)
  let bytes = Buffer.from(words.buffer) as Buffer & LatinWriter

  const ensure = (slots: number) => {
    if (slots * WORDS <= words.length) return
    const next = new Uint32Array(Math.max(slots, (words.length / WORDS) * 2) * WORDS)
    next.set(words)
    words = next
    bytes = Buffer.from(words.buffer) as Buffer & LatinWriter
  }

  return {
    /** Writes a slot's entry; the caller keeps ids plain (printable ASCII, no quote or backslash). */
    set(slot: number, id: string) {
      if (id.length > MAX_ID) return
      ensure(slot + 1)
      const at = slot * WIDTH
      const end = at + bytes.latin1Write(id, at)
      bytes[end] = QUOTE
      bytes[end + 1] = COMMA
      bytes.fill(SPACE, end + 2, at + WIDTH - 1)
      bytes[at + WIDTH - 1] = QUOTE
    },

    /** A fresh column for slots renumbered 0..n-1 (after the build's title sort). */
    reset(ids: readonly string[]) {
      words = new Uint32Array(Math.max(1024, ids.length) * WORDS)
      bytes = Buffer.from(words.buffer) as Buffer & LatinWriter
      for (let slot = 0; slot < ids.length; slot++) this.set(slot, ids[slot]!)
    },

    /**
     * `head`, the ids of `ordered` as a JSON array's inside, then `tail` (both ASCII), as bytes.
     * `lastId` is the id of the last slot of `ordered` (its length ends the array). The bytes
     * live in a buffer the next call overwrites: send or copy them before anything else runs.
     */
    json(ordered: Int32Array, head: string, tail: string, lastId: string): Uint8Array {
      if (ordered.length === 0) return Buffer.from(head + tail)
      // Spaces after the head put the first id (after its opening quote) on a 4-byte boundary.
      const lead = (head.length + 1 + 3) & ~3
      const room = lead + ordered.length * WIDTH + tail.length
      const { bytes: out, words: out32 } = answerBuffer(room)
      out.latin1Write(head, 0)
      out.fill(SPACE, head.length, lead - 1)
      out[lead - 1] = QUOTE
      const from = words
      let to = lead >>> 2
      for (let i = 0; i < ordered.length; i++, to += WORDS) {
        const s = ordered[i]! * WORDS
        out32[to] = from[s]!
        out32[to + 1] = from[s + 1]!
        out32[to + 2] = from[s + 2]!
        out32[to + 3] = from[s + 3]!
        out32[to + 4] = from[s + 4]!
        out32[to + 5] = from[s + 5]!
        out32[to + 6] = from[s + 6]!
        out32[to + 7] = from[s + 7]!
        out32[to + 8] = from[s + 8]!
        out32[to + 9] = from[s + 9]!
        out32[to + 10] = from[s + 10]!
      }
      // The last entry ends at its closing quote; the tail follows.
      const end = lead + (ordered.length - 1) * WIDTH + lastId.length + 1
      const length = end + out.latin1Write(tail, end)
      return out.subarray(0, length)
    },
  }
}

/**
 * The answers' buffer, grown to the largest asked so far (word-aligned, touched once), shared by
 * every index in the process: each answer is copied out before the next one is written.
 */
let answer = { bytes: Buffer.alloc(0) as Buffer & LatinWriter, words: new Uint32Array(0) }

function answerBuffer(room: number) {
  if (answer.bytes.length < room) {
    // Filled when made: the word copy into untouched memory takes its page faults one at a time
    // (~15 ms against ~4 ms for 488,000 ids); the next answers reuse the touched pages.
    const bytes = Buffer.allocUnsafeSlow((Math.ceil(room * 1.25) + 3) & ~3).fill(SPACE)
    answer = {
      bytes: bytes as Buffer & LatinWriter,
      words: new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2),
    }
  }
  return answer
}

export type IdColumn = ReturnType<typeof createIdColumn>
