// Wire shape of LANraragi's Minion task queueing (POST /api/minion/{task}/queue): `args` (a JSON
// array as text) and `priority` are request params, from the query string or a form body.
import { t } from 'elysia'
import { fail } from '../../errors.ts'
import { parseInteger } from '../params.ts'

/** Only a string counts, as for the archive routes' params: anything else is as if not sent. */
const ParamText = t.Optional(t.Unknown())

export const MinionModel = {
  queueParams: t.Object({ task: t.String() }),
  queueQuery: t.Object({ args: t.Optional(t.String()), priority: t.Optional(t.String()) }),
  queueBody: t.Optional(
    t.Object({ args: ParamText, priority: ParamText }, { additionalProperties: true }),
  ),
}

type QueueQuery = typeof MinionModel.queueQuery.static
type QueueBody = typeof MinionModel.queueBody.static

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined

/**
 * The task's priority, after checking its arguments; a field in both the query and the body takes
 * the query's. No `args` is no arguments (LANraragi would fail on it); anything but a JSON array
 * is a 400.
 */
export function minionQueuePriority(body: QueueBody | null, query: QueueQuery): number {
  const rawArgs = query.args ?? textOf(body?.args)
  let args: unknown = []
  if (rawArgs !== undefined && rawArgs.trim() !== '') {
    try {
      args = JSON.parse(rawArgs)
    } catch {
      args = null
    }
  }
  if (!Array.isArray(args)) throw fail.bad_request('args must be a JSON array.')
  return parseInteger(query.priority ?? textOf(body?.priority), 'priority', { fallback: 0 })
}
