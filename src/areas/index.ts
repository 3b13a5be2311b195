// The area list: what the server is made of. boot.ts builds each area's state into Deps, registers
// its job kinds, subscribers and recovery; app.ts mounts its route files; the policy table is the
// union of their rows. A new area is one line here (docs/architecture.md, Areas).
import type { AreaParts } from './area.ts'
import { serverArea } from './server.ts'
import { authArea } from './auth.ts'
import { searchArea } from './search.ts'
import { archivesArea } from './archives.ts'
import { collectionsArea } from './collections.ts'
import { llmArea } from './llm.ts'
import { databaseArea } from './database.ts'
import { pluginsArea } from './plugins.ts'
import { downloadsArea } from './downloads.ts'
import { splitArea } from './split.ts'
import { duplicatesArea } from './duplicates.ts'
import { wizardArea } from './wizard.ts'
import { opdsArea } from './opds.ts'
import { uiArea } from './ui.ts'

// Order: subscribers run in this order (search first), routes are mounted in it (ui last).
export const AREAS = [
  serverArea,
  authArea,
  searchArea,
  archivesArea,
  collectionsArea,
  llmArea,
  databaseArea,
  pluginsArea,
  downloadsArea,
  splitArea,
  duplicatesArea,
  wizardArea,
  opdsArea,
  uiArea,
] as const

type Areas = (typeof AREAS)[number]
type StateOf<A> = A extends AreaParts<string, infer S, infer _J> ? S : never
type JobArgsOfArea<A> = A extends AreaParts<string, infer _S, infer J> ? J : never
type StateKeyOf<A extends Areas> = A extends { stateKey: infer K extends string } ? K : A['name']

/**
 * Each area's state record, under the area's name (`deps.archives`, `deps.downloads`, ...) or the
 * state key it declares instead (`deps.searchState`).
 */
export type AreaStates = {
  [A in Areas as StateOf<A> extends undefined ? never : StateKeyOf<A>]: StateOf<A>
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  u: infer I,
) => void
  ? I
  : never

/** Every area's job kinds' arguments, by job name. */
export type AreaJobArgs = UnionToIntersection<JobArgsOfArea<Areas>>
