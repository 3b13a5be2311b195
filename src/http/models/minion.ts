// Wire shape of LANraragi's Minion task queueing (POST /api/minion/{task}/queue): `args` (a JSON
// array as text) and `priority` are request params, from the query string or a form body.
import { t } from 'elysia'
import { fail } from '../../errors.ts'
import { ParamText, parseInteger, requestParam } from '../params.ts'

export const MinionModel = {
  queueParams: t.Object({ task: t.String() }),
  queueQuery: t.Object({ args: t.Optional(t.String()), priority: t.Optional(t.String()) }),
  queueBody: t.Optional(
    t.Object({ args: ParamText, priority: ParamText }, { additionalProperties: true }),
  ),
}

type QueueQuery = typeof MinionModel.queueQuery.static
type QueueBody = typeof MinionModel.queueBody.static

/**
 * The task's priority, after checking its arguments; a field in both the query and the body takes
 * the query's. No `args` is no arguments (LANraragi would fail on it); anything but a JSON array
 * is a 400.
 */
export function minionQueuePriority(body: QueueBody | null, query: QueueQuery): number {
  const rawArgs = requestParam(query, body, 'args')
  let args: unknown = []
  if (rawArgs !== undefined && rawArgs.trim() !== '') {
    try {
      args = JSON.parse(rawArgs)
    } catch {
      args = null
    }
  }
  if (!Array.isArray(args)) throw fail.bad_request('args must be a JSON array.')
  return parseInteger(requestParam(query, body, 'priority'), 'priority', { fallback: 0 })
}
