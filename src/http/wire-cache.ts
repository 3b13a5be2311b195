// Archive search hits as wire JSON text, kept per archive id until the archive is written, so a
// search page is answered by joining kept fragments instead of reading rows and building objects.
// Tankoubon hits are built per request: they fold their members' rows, which change apart.
import type { Deps } from '../deps.ts'
import type { EventBus } from '../events.ts'
import { loadHits, type SearchHit } from '../domain/search/run-search.ts'
import { toWireHit } from './models/search.ts'

/**
 * Characters of JSON kept in all; the oldest fragments go first past it. A hit of 335 characters
 * takes ~430 bytes of heap kept (bench/search-answer.ts): characters one byte each when Latin-1,
 * two otherwise, plus ~100 bytes of string and map entry. At the bound: ~50,000 such hits in
 * ~22 MB, or ~38 MB were every character two bytes.
 */
export const MAX_WIRE_CACHE_CHARS = 16 * 2 ** 20

export type WireCache = {
  get(id: string): string | undefined
  set(id: string, json: string): void
  drop(id: string): void
  clear(): void
  /** Fragments kept. */
  readonly size: number
  /** Their characters in all, at most the bound. */
  readonly chars: number
}

export function createWireCache(maxChars = MAX_WIRE_CACHE_CHARS): WireCache {
  // Map order is insertion order: the first key is the oldest fragment.
  const fragments = new Map<string, string>()
  let chars = 0
  const drop = (id: string) => {
    const json = fragments.get(id)
    if (json === undefined) return
    fragments.delete(id)
    chars -= json.length
  }
  return {
    get: (id) => fragments.get(id),
    set(id, json) {
      drop(id)
      if (json.length > maxChars) return
      fragments.set(id, json)
      chars += json.length
      if (chars > maxChars)
        for (const oldest of fragments.keys()) {
          drop(oldest)
          if (chars <= maxChars) break
        }
    },
    drop,
    clear() {
      fragments.clear()
      chars = 0
    },
    get size() {
      return fragments.size
    },
    get chars() {
      return chars
    },
  }
}

/**
 * Drops an archive's fragment on every write of its row. Writers publish after their commit and
 * before their request answers, so the next search builds the fragment from the new row.
 */
export function dropWireOnWrites(bus: EventBus, cache: Pick<WireCache, 'drop'>): () => void {
  const stops = [
    bus.subscribe('archive.saved', (event) => cache.drop(event.row.id)),
    bus.subscribe('archive.hidden', (event) => cache.drop(event.id)),
    bus.subscribe('archive.removed', (event) => cache.drop(event.id)),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}

const idOf = (hit: SearchHit) => (hit.kind === 'archive' ? hit.row.id : hit.tank.id)

/**
 * The hits of `ids` as JSON fragments, in order; ids whose row vanished are left out. What is not
 * kept (Tankoubons, archives not seen since their last write) is read in one go and built here.
 * Reading a row and keeping its fragment happen in one synchronous stretch, so no write (and no
 * drop) can land between them.
 */
export function hitFragments(deps: Pick<Deps, 'db' | 'wireCache'>, ids: string[]): string[] {
  const cache = deps.wireCache
  const kept = ids.map((id) => cache.get(id))
  const missing = ids.filter((_, i) => kept[i] === undefined)
  const loaded = new Map(
    missing.length === 0 ? [] : loadHits(deps, missing).map((hit) => [idOf(hit), hit]),
  )
  const out: string[] = []
  for (let i = 0; i < ids.length; i++) {
    let json = kept[i]
    if (json === undefined) {
      const hit = loaded.get(ids[i]!)
      if (!hit) continue
      json = JSON.stringify(toWireHit(hit))
      // The page's id is the index's own string: keyed by it, the entry adds no copy of the id.
      if (hit.kind === 'archive') cache.set(ids[i]!, json)
    }
    out.push(json)
  }
  return out
}

/** A search page's body, keys as the object answer had them. */
export function searchPageJson(fragments: string[], total: number, filtered: number): string {
  return `{"data":[${fragments.join(',')}],"recordsTotal":${total},"recordsFiltered":${filtered}}`
}

/** The random pick's body: `recordsTotal` counts the hits sent. */
export function randomPickJson(fragments: string[]): string {
  return `{"data":[${fragments.join(',')}],"recordsTotal":${fragments.length}}`
}
