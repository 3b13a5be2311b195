// The bare 204 of a route that reads the search index, asked before the index is built: search,
// the tag statistics, the untagged list.

export function notReady(set: { status?: number | string }): string {
  set.status = 204
  return ''
}
