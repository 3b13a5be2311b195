// Which pages show together. A spread is a list of 0-based page indexes in reading order; the
// view reverses a pair for right-to-left, so the pairing itself does not depend on it.

/** Per page: true for a wide scan (a two-page spread on one image), undefined while unknown. */
export type WidePages = readonly (boolean | undefined)[]

/**
 * Double page mode pairs pages in order, except that the cover (when `coverAlone`) and every wide
 * page stand alone, and a page followed by a wide one too: pairing starts again after a wide page.
 * A page whose size is not known yet counts as a normal one.
 */
export function spreadsOf(
  count: number,
  double: boolean,
  coverAlone: boolean,
  wide: WidePages = [],
): number[][] {
  if (!double) return Array.from({ length: count }, (_, i) => [i])
  const spreads: number[][] = []
  let i = 0
  // The cover is a single sheet in print: alone, so the pairs after it match the book's spreads.
  if (coverAlone && count > 0) spreads.push([i++])
  while (i < count) {
    const pairs = !wide[i] && i + 1 < count && !wide[i + 1]
    spreads.push(pairs ? [i, i + 1] : [i])
    i += pairs ? 2 : 1
  }
  return spreads
}

/** Wider than tall; an unreadable page (measured 0x0) stays unknown. */
export const isWide = (size: { width: number; height: number }): boolean | undefined =>
  size.width > 0 && size.height > 0 ? size.width > size.height : undefined

export function spreadIndexOf(spreads: number[][], index: number): number {
  const found = spreads.findIndex((spread) => spread.includes(index))
  return found < 0 ? 0 : found
}
