// Statistics for the bench scripts, in a module that loads nothing else: the query-class client
// (bench/query-classes.ts) runs in a process of its own and should hold nothing but its requests.

/** The value at fraction `p` of `values` (sorted on a copy). */
export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}
export const median = (values: number[]) => percentile(values, 0.5)
export const geomean = (values: number[]) =>
  values.length === 0 ? NaN : Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length)
export const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')
