// What a domain area adds to the server, declared in one place (docs/architecture.md, Areas).
// boot.ts, app.ts, the job kinds and the policy table are assembled from the list in index.ts;
// a new area is its own folders plus one line there.
import type { AnyElysia } from 'elysia'
import type { Deps, Infra } from '../deps.ts'
import type { JobFactories } from '../jobs/define-job.ts'
import type { PolicyRows } from '../http/policy.ts'

/** A route file: its Elysia plugin and its rows of the policy table. */
export type RouteFile = {
  routes: (deps: Deps) => AnyElysia
  policy: PolicyRows
}

/** Undoes what a hook started; run in reverse start order when the server stops. */
export type Stop = () => void | Promise<void>

/**
 * An area, annotated on its const (`export const xArea: Area<'x', XState, XJobArgs> = ...`): the
 * declared types, not the values, give Deps and `enqueue` their shapes, so the area's code may use
 * Deps freely without a circular inference. `Key`: where its state sits in Deps, when not under
 * its name (then `stateKey` says so).
 */
export type Area<
  Name extends string,
  State = undefined,
  JobArgs = NoJobs,
  Key extends string = Name,
> = AreaParts<Name, State, JobArgs> & StateKey<Name, Key>

/** What an area declares, but where its state sits. */
export type AreaParts<Name extends string, State, JobArgs> = {
  /** Its name in logs, and the key of its state in Deps (`deps[name]`) unless stateKey is given. */
  name: Name
  /** Per-server state, built once from the infrastructure: no module keeps such state. */
  state?: (infra: Infra) => State
  /** Job kinds by the spec's job name, each made from the server's deps when registered. */
  jobs?: JobFactories<JobArgs, Deps>
  /** Event subscribers, registered once jobs are; a returned stop runs at shutdown. */
  subscribe?: (deps: Deps) => Stop | void
  /**
   * Start-up work before the queue resumes its jobs and the server listens: undoing or completing
   * what a crash cut short, first-install rows.
   */
  recover?: (deps: Deps) => Promise<void> | void
  /** Background work started once the server listens; a returned stop runs at shutdown. */
  start?: (deps: Deps) => Stop | void
  routes?: readonly RouteFile[]
}

/**
 * The key of the area's state in Deps when Infra holds the area's name already (the search
 * index is `deps.search`): required then, so the type and the value cannot disagree.
 */
type StateKey<Name extends string, Key extends string> = [Key] extends [Name]
  ? { stateKey?: undefined }
  : { stateKey: Key }

/** An area without job kinds. */
export type NoJobs = Record<never, never>

/** The widest area: what the assembly loops over (state and jobs read as plain data). */
export type AnyArea = {
  [K in keyof AreaParts<string, unknown, NoJobs>]: K extends 'state'
    ? ((infra: Infra) => unknown) | undefined
    : K extends 'jobs'
      ? Readonly<Record<string, unknown>> | undefined
      : AreaParts<string, unknown, NoJobs>[K]
} & { stateKey?: string }
