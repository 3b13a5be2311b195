// The server assembled from the area list: state records, job kinds, route files. The one place
// the typed list is read as plain data (the casts below are checked by test/unit/areas.test.ts).
import type { Deps, Infra } from '../deps.ts'
import type { JobFactories } from '../jobs/define-job.ts'
import type { JobArgsByName } from '../jobs/kinds/index.ts'
import type { AnyArea, RouteFile } from './area.ts'
import { AREAS, type AreaStates } from './index.ts'
import { policyTable, type PolicyTable } from '../http/policy.ts'

/** The server's areas: the list, or a test's list with a toy area added (startServer's option). */
export const SERVER_AREAS = AREAS as readonly AnyArea[]

/** Each area's state record under its name (or declared state key), built once per server. */
export function areaStates(infra: Infra, areas = SERVER_AREAS): AreaStates {
  const states: Record<string, unknown> = {}
  for (const area of areas) {
    if (!area.state) continue
    const key = area.stateKey ?? area.name
    if (key in infra || key in states) throw new Error(`area ${area.name} shadows a part of Deps`)
    states[key] = area.state(infra)
  }
  return states as AreaStates
}

/** Every area's job kinds in one map; a name declared twice is a mistake caught at start. */
export function jobFactories(areas = SERVER_AREAS): JobFactories<JobArgsByName, Deps> {
  const kinds: Record<string, unknown> = {}
  for (const area of areas) {
    for (const [name, kind] of Object.entries(area.jobs ?? {})) {
      if (name in kinds) throw new Error(`job kind ${name} is declared twice`)
      kinds[name] = kind
    }
  }
  return kinds as JobFactories<JobArgsByName, Deps>
}

/** Every area's route files, in the list's order. */
export function routeFiles(areas = SERVER_AREAS): RouteFile[] {
  return areas.flatMap((area) => area.routes ?? [])
}

/** The policy table: the union of the areas' route files' rows (one per server, built at start). */
export function areaPolicy(areas = SERVER_AREAS): PolicyTable {
  return policyTable(areas.flatMap((area) => (area.routes ?? []).map((file) => file.policy)))
}
