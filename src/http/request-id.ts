// Request ids: every answer carries `X-Request-Id` (a sane one the client or a proxy sent, else a
// new UUID), every log line written while the request is handled carries it as `request_id`, and
// one `request` line records the method, path (without its query), status and time: at debug, so
// the default log stays quiet, or at warn when the answer is a 5xx.
import { Elysia } from 'elysia'
import { createLogger, enterLogContext } from '../log.ts'

const log = createLogger('http')

/** What an incoming id may look like: short, printable, no spaces or separators of other headers. */
const SANE_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/

export function requestIdOf(header: string | null): string {
  return header !== null && SANE_ID.test(header) ? header : crypto.randomUUID()
}

export function requestIds() {
  const started = new WeakMap<Request, { id: string; at: number }>()
  return new Elysia({ name: 'request-ids' })
    .onRequest(({ request, set }) => {
      const id = requestIdOf(request.headers.get('x-request-id'))
      started.set(request, { id, at: performance.now() })
      set.headers['x-request-id'] = id
      enterLogContext({ request_id: id })
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
      const start = started.get(request)
      if (!start) return
      const url = request.url
      const pathStart = url.indexOf('/', url.indexOf('//') + 2)
      const queryStart = url.indexOf('?', pathStart)
      // A handler's (or the error renderer's) own Response holds the status; else `set` does.
      const status =
        responseValue instanceof Response
          ? responseValue.status
          : typeof set.status === 'number'
            ? set.status
            : Number(set.status) || 200
      const write = status >= 500 ? log.warn : log.debug
      write('request', {
        request_id: start.id,
        method: request.method,
        path: url.slice(pathStart, queryStart < 0 ? undefined : queryStart),
        status,
        ms: Math.round(performance.now() - start.at),
      })
    })
}
