// Background job status: lookup, listing and clearing.
import { Elysia, t } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { fail } from '../../errors.ts'
import { ok } from '../envelope.ts'
import { MinionJobResponse, toWireJob, toWireJobDetail, toWireMinionJob } from '../models/jobs.ts'
import { MinionModel, minionQueuePriority } from '../models/minion.ts'
import { queueMinionTask } from '../../domain/minion-tasks.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const jobPolicy = {
  'GET /api/jobqueue/:id': { op: 'job_status', access: 'any' },
  'GET /api/minion/:id': { op: 'minion_job_status', access: 'any' },
  'GET /api/minion/:id/detail': { op: 'minion_job_detail', access: 'admin' },
  'POST /api/minion/:task/queue': { op: 'queue_minion_job', access: 'admin' },
  'GET /api/jobs': { op: 'list_jobs', access: 'any' },
  'DELETE /api/jobs/:id': { op: 'clear_job', access: 'admin' },
  'DELETE /api/jobs': { op: 'clear_jobs', access: 'admin' },
} satisfies PolicyRows

const JobParams = t.Object({ id: t.String() })

function parseJobId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw fail.bad_request(`Invalid job id: ${raw.slice(0, 32)}`)
  return Number(raw)
}

function findJob(deps: Pick<Deps, 'jobs'>, raw: string) {
  const row = deps.jobs.get(parseJobId(raw))
  // LANraragi answers an unknown job with a 400 envelope, in these words.
  if (!row) throw fail.bad_request('No job with this ID.')
  return row
}

export const jobRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.jobs' })
    .use(requestContext(deps))
    .get('/api/jobqueue/:id', ({ params }) => toWireJobDetail(findJob(deps, params.id)), {
      params: JobParams,
    })
    .get('/api/minion/:id', ({ params }) => toWireMinionJob(findJob(deps, params.id)), {
      params: JobParams,
      response: MinionJobResponse,
    })
    // LANraragi's full job view (its web client and download scripts poll it): same body here.
    .get('/api/minion/:id/detail', ({ params }) => toWireMinionJob(findJob(deps, params.id)), {
      params: JobParams,
      response: MinionJobResponse,
    })
    // LANraragi's queueing of a Minion task by its name (domain/minion-tasks.ts).
    .post(
      '/api/minion/:task/queue',
      ({ params, query, body }) =>
        ok({ job: queueMinionTask(deps, params.task, minionQueuePriority(body, query)) }),
      {
        params: MinionModel.queueParams,
        query: MinionModel.queueQuery,
        body: MinionModel.queueBody,
      },
    )
    .get('/api/jobs', () => ({ jobs: deps.jobs.list().map(toWireJob) }))
    .delete(
      '/api/jobs/:id',
      ({ params }) => {
        deps.jobs.clear(parseJobId(params.id))
        return ok({ id: params.id })
      },
      { params: JobParams },
    )
    .delete(
      '/api/jobs',
      ({ query }) => {
        const state = query.state ?? 'finished'
        if (state !== 'finished' && state !== 'failed')
          throw fail.bad_request('state must be finished or failed')
        return ok({ deleted: deps.jobs.clearInState(state) })
      },
      { query: t.Object({ state: t.Optional(t.String()) }) },
    )
