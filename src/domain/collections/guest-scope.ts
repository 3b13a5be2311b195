// The guest-visitor scope as the collection use-cases take it: null for an unrestricted caller,
// else the ids guests may see (one definition, shared with search: search/guest-scope.ts).
import type { Deps } from '../../deps.ts'
import { guestVisibleIds } from '../../search/guest-scope.ts'

/** null = no restriction (a logged-in caller, or guest mode not in play). */
export type Scope = ReadonlySet<string> | null

export const inScope = (scope: Scope, id: string): boolean => scope === null || scope.has(id)

export function scopeFor(deps: Pick<Deps, 'db' | 'search'>, guestScoped: boolean): Scope {
  return guestScoped ? guestVisibleIds(deps) : null
}
