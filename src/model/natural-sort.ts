// Natural order ("page 2" before "page 10"), case-insensitive and Unicode-aware: the one
// comparison used for page lists, title sorting and tag-value sorting.
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

export const naturalCompare = (a: string, b: string): number =>
  collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0)

export function naturalSort(values: string[]): string[] {
  return values.sort(naturalCompare)
}
