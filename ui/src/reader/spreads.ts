// Which pages show together. A spread is a list of 0-based page indexes in reading order; the
// view reverses a pair for right-to-left.

export function spreadsOf(count: number, double: boolean, coverAlone: boolean): number[][] {
  if (!double) return Array.from({ length: count }, (_, i) => [i])
  const spreads: number[][] = []
  let i = 0
  // The cover is a single sheet in print: alone, so the pairs after it match the book's spreads.
  if (coverAlone && count > 0) spreads.push([i++])
  for (; i < count; i += 2) spreads.push(i + 1 < count ? [i, i + 1] : [i])
  return spreads
}

export function spreadIndexOf(spreads: number[][], index: number): number {
  const found = spreads.findIndex((spread) => spread.includes(index))
  return found < 0 ? 0 : found
}
