// Slots by document id: an open-addressing hash table over the store's id column, one Int32Array
// instead of a Map (a Map of a million ids took ~52 MB of heap, this table 8 MB).

const EMPTY = 0
const DELETED = -1

/** FNV-1a over the id's UTF-16 code units. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/** `idAt(slot)` is the id the store holds in a slot; the table keeps slot + 1 per entry. */
export function createIdTable(idAt: (slot: number) => string) {
  let table = new Int32Array(1 << 10)
  let live = 0
  /** Live entries and tombstones: what probing walks over. */
  let filled = 0

  const probe = (id: string): number => {
    const mask = table.length - 1
    let at = hashOf(id) & mask
    for (;;) {
      const entry = table[at]!
      if (entry === EMPTY || (entry > 0 && idAt(entry - 1) === id)) return at
      at = (at + 1) & mask
    }
  }

  const rehash = (size: number) => {
    const old = table
    table = new Int32Array(size)
    filled = live
    for (let i = 0; i < old.length; i++) {
      const entry = old[i]!
      if (entry <= 0) continue
      const mask = size - 1
      let at = hashOf(idAt(entry - 1)) & mask
      while (table[at] !== EMPTY) at = (at + 1) & mask
      table[at] = entry
    }
  }

  return {
    get(id: string): number | undefined {
      const entry = table[probe(id)]!
      return entry > 0 ? entry - 1 : undefined
    },

    /** Adds `id` (not present yet) at `slot`; the store holds `id` in that slot already. */
    add(id: string, slot: number) {
      if ((filled + 1) * 2 > table.length) {
        // Rebuilt (tombstones dropped) at most a third full; at least as large as it was.
        let size = table.length
        while ((live + 1) * 3 > size) size *= 2
        rehash(size)
      }
      const mask = table.length - 1
      let at = hashOf(id) & mask
      while (table[at]! > 0) at = (at + 1) & mask
      if (table[at] === EMPTY) filled++
      table[at] = slot + 1
      live++
    },

    /** Removes `id`; call it while the store still holds `id` in its slot. */
    delete(id: string) {
      const at = probe(id)
      if (table[at]! <= 0) return
      table[at] = DELETED
      live--
    },

    /** Empties the table, keeping room for `expected` ids. */
    clear(expected = 0) {
      let size = 1 << 10
      while (expected * 2 > size) size *= 2
      table = new Int32Array(size)
      live = 0
      filled = 0
    },
  }
}
