// Evaluates a query against the store: the starting set (grouping, category, guest scope, flags),
// then each term narrows it. Tag hits come from posting lists of the vocabulary's matches; titles
// are tested only for documents still in the running, so later terms cost little.
import { compileTerm } from './pattern.ts'
import type { NumberTerm, Term, TextTerm } from './query.ts'
import { ARCHIVE, TANK, type Store } from './store.ts'
import type { Vocabulary } from './vocabulary.ts'

export type Selection = {
  /** Tankoubons replace their members (groupby_tanks). */
  grouped: boolean
  tanksOnly: boolean
  /** Slots a static category allows, or null. */
  allowed: Uint8Array | null
  /** Slots the guest scope allows, or null. */
  scope: Uint8Array | null
  newonly: boolean
  untaggedonly: boolean
  hidecompleted: boolean
}

/** Reusable per-slot marks: a generation counter spares clearing them between terms. */
export type Marks = { array: Int32Array; next(): number }

export function createMarks(): Marks {
  let generation = 0
  const marks = {
    array: new Int32Array(1024),
    next() {
      if (++generation === 0x7fffffff) {
        marks.array.fill(0)
        generation = 1
      }
      return generation
    },
  }
  return marks
}

export function ensureCapacity(marks: Marks, capacity: number): void {
  if (marks.array.length >= capacity) return
  const grown = new Int32Array(Math.max(capacity, marks.array.length * 2))
  grown.set(marks.array)
  marks.array = grown
}

/** Whether a live slot belongs to the library view (grouped: Tankoubons and loose archives). */
export function inUniverse(store: Store, slot: number, grouped: boolean, tanksOnly: boolean): boolean {
  if (!store.alive[slot]) return false
  if (store.kind[slot] === TANK) return grouped && store.groupCount[slot]! > 0
  return !tanksOnly && (!grouped || store.groupCount[slot] === 0)
}

export function startingSet(store: Store, sel: Selection): number[] {
  const out: number[] = []
  for (let slot = 0; slot < store.capacity; slot++) {
    if (!inUniverse(store, slot, sel.grouped, sel.tanksOnly)) continue
    if (sel.allowed && !sel.allowed[slot]) continue
    if (sel.scope && !sel.scope[slot]) continue
    if (sel.newonly && !store.isnew[slot]) continue
    if (sel.untaggedonly && !store.untagged[slot]) continue
    if (sel.hidecompleted && store.kind[slot] === ARCHIVE) {
      const pages = store.pagecount[slot]!
      if (pages > 0 && store.progress[slot]! >= pages) continue
    }
    out.push(slot)
  }
  return out
}

/** Cheap, selective terms first; the result does not depend on the order (all are ANDed). */
function termCost(term: Term): number {
  if (term.kind === 'number') return 3
  if (term.negated) return 4
  return term.namespaced || (term.exact && !term.quoted) ? 0 : 1
}

function compareNumber(value: number, term: NumberTerm): boolean {
  switch (term.op) {
    case '=':
      return value === term.value
    case '>':
      return value > term.value
    case '<':
      return value < term.value
    case '>=':
      return value >= term.value
    case '<=':
      return value <= term.value
  }
}

function narrowByText(
  store: Store,
  vocab: Vocabulary,
  marks: Marks,
  term: TextTerm,
  candidates: number[],
  titlesOnly: boolean,
): number[] {
  const matcher = compileTerm(term)
  const tags = titlesOnly ? [] : vocab.matchingTags(term, matcher)
  let postings = 0
  for (const tag of tags) postings += vocab.postings(tag).length
  // Few candidates left: test their own tags instead of walking long posting lists.
  const hasTag = candidates.length * TAGS_PER_DOC < postings ? tagTester(vocab, store, tags) : null
  const mark = marks.next()
  const array = marks.array
  if (!hasTag) for (const tag of tags) for (const slot of vocab.postings(tag)) array[slot] = mark
  // Suggest matches titles only; there an exact term is a whole-title match.
  const title = titlesOnly && !matcher.title ? compileTerm({ ...term, quoted: true }).title : matcher.title
  const needsColon = term.text.includes(':')
  const out: number[] = []
  for (const slot of candidates) {
    let hit = hasTag ? hasTag(slot) : array[slot] === mark
    if (!hit && title && (!needsColon || store.titleColon[slot])) hit = title(store.titleLower[slot]!)
    if (hit !== term.negated) out.push(slot)
  }
  return out
}

/** A rough tags-per-document figure that decides between the two ways of finding tag hits. */
const TAGS_PER_DOC = 16

function tagTester(vocab: Vocabulary, store: Store, tags: number[]): (slot: number) => boolean {
  const wanted = new Uint8Array(vocab.size)
  for (const tag of tags) wanted[tag] = 1
  return (slot) => {
    for (const tag of store.tagIds[slot]!) if (wanted[tag]) return true
    return false
  }
}

export function applyTerms(
  store: Store,
  vocab: Vocabulary,
  marks: Marks,
  terms: Term[],
  start: number[],
  titlesOnly = false,
): number[] {
  let candidates = start
  const ordered = [...terms].sort((a, b) => termCost(a) - termCost(b))
  for (const term of ordered) {
    if (candidates.length === 0) break
    if (term.kind === 'number') {
      const values = term.field === 'pagecount' ? store.pagecount : store.progress
      candidates = candidates.filter((slot) => compareNumber(values[slot]!, term) !== term.negated)
    } else {
      candidates = narrowByText(store, vocab, marks, term, candidates, titlesOnly)
    }
  }
  return candidates
}
