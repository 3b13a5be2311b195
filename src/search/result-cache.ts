// Results of recent searches, by their normalized parameters, bounded by count and by bytes: a
// result holds its ordered slots (4 bytes per match, 4 MB for a whole library of a million). The
// least recently used go first.

export type ResultCache<T> = ReturnType<typeof createResultCache<T>>

export function createResultCache<T>(limits: { entries: number; bytes: number }) {
  const entries = new Map<string, { value: T; bytes: number }>()
  let held = 0

  /** Drops the least recently used entries, `keep` last, until both limits hold. */
  const shrink = (keep?: string) => {
    for (const [key, entry] of entries) {
      if (entries.size <= limits.entries && held <= limits.bytes) return
      if (key === keep) continue
      entries.delete(key)
      held -= entry.bytes
    }
  }

  return {
    get(key: string): T | undefined {
      const entry = entries.get(key)
      if (!entry) return undefined
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },

    set(key: string, value: T, bytes: number) {
      const old = entries.get(key)
      if (old) {
        entries.delete(key)
        held -= old.bytes
      }
      entries.set(key, { value, bytes })
      held += bytes
      shrink(key)
    },

    clear() {
      entries.clear()
      held = 0
    },

    get size() {
      return entries.size
    },

    /** Bytes held by the kept values, as their owners counted them. */
    get bytes() {
      return held
    },
  }
}
