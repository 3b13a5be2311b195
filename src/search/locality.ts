// Memory locality for the ids results are read in. After a bulk load, 100,000 id strings lie
// scattered among their rows' other data; reading them in title order (every result) then
// misses the CPU cache on nearly every one: JSON of 49,000 result ids took 9-19 ms in the
// server. Copied once in title order they sit side by side, and the same JSON takes 1-2 ms.
// (A JSON.parse copy did not help there; a copy made by Buffer's native decoder did.)

/** A fresh copy of an ASCII string (archive and Tankoubon ids are ASCII). */
export function freshAsciiCopy(value: string): string {
  return Buffer.from(value, 'latin1').toString('latin1')
}
