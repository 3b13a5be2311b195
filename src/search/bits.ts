// Branch-free tests for the index's hot filters. A filter over a million slots that keeps about
// half of them mispredicts a branch so often that it takes ~3x longer (~10 ms against ~3.5 ms in
// Bun, bench/README.md); a `? 1 : 0` still compiles to a branch, bit arithmetic does not.

/** 1 when `a === b`, else 0, for int32 values >= 0 (marks, slots). */
export const equalBit = (a: number, b: number) => ((a ^ b) - 1) >>> 31

/** 1 when `low <= value <= high`, else 0; all three int32 and the differences within int32. */
export const inRangeBit = (value: number, low: number, high: number) =>
  (((value - low) | (high - value)) >>> 31) ^ 1

/** 1 when bit `slot` of the bitset `bits` is set, else 0 (no branch either). */
export const bitAt = (bits: Int32Array, slot: number) => (bits[slot >>> 5]! >>> (slot & 31)) & 1
