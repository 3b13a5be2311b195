// Server info, temp folder cleaning, thumbnail regeneration and the shinobu (watcher) endpoints.
import { Elysia, t } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { fail } from '../../errors.ts'
import { ParamsBody, parseFlag, requestParam } from '../params.ts'
import { serverInfo } from '../../domain/info.ts'
import { InfoResponse, toWireInfo } from '../models/info.ts'
import { cleanTempFolder } from '../../domain/temp-folder.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const infoPolicy = {
  'GET /api/info': { op: 'server_info', access: 'open' },
  'DELETE /api/tempfolder': { op: 'cleantemp', access: 'admin' },
  'POST /api/regen_thumbs': { op: 'regen_thumbnails', access: 'admin' },
  'POST /api/shinobu/rescan': { op: 'shinobu_rescan', access: 'admin' },
  // Not in the spec's tables: LANraragi's rule (its key is needed, nofun_mode or not).
  'GET /api/shinobu': { op: 'shinobu_status', access: 'admin' },
  'POST /api/shinobu/restart': { op: 'shinobu_restart', access: 'admin' },
  'POST /api/shinobu/stop': { op: 'shinobu_stop', access: 'admin' },
} satisfies PolicyRows

export const infoRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.info' })
    .use(requestContext(deps))
    .get('/api/info', () => toWireInfo(serverInfo(deps)), { response: InfoResponse })
    .delete('/api/tempfolder', async () =>
      ok({ error: null, newsize: await cleanTempFolder(deps) }),
    )
    .post(
      '/api/regen_thumbs',
      ({ query, body }) => {
        // A request param to LANraragi: its Python client sends `force` in a form body.
        const force = parseFlag(requestParam(query, body, 'force'), 'force')
        return ok({ job: deps.jobs.enqueue('regen_thumbs', { force }) })
      },
      {
        query: t.Record(t.String(), t.String()),
        body: ParamsBody,
      },
    )
    // The rescan's job, plus LANraragi's new_pid (its rescan restarts the watcher process).
    .post('/api/shinobu/rescan', () =>
      ok({ job: deps.archives.contentSync.rescanAndResume(), new_pid: process.pid }),
    )
    // Shinobu is LANraragi's watcher process; ours runs in the server process, hence its pid.
    .get('/api/shinobu', () =>
      ok({ is_alive: deps.archives.contentSync.watching() ? 1 : 0, pid: process.pid }),
    )
    .post('/api/shinobu/stop', () => {
      deps.archives.contentSync.stopWatcher()
      return ok()
    })
    .post('/api/shinobu/restart', () => {
      if (!deps.archives.contentSync.restartWatcher())
        throw fail.internal('The content folder watcher could not be started.')
      return ok({ new_pid: process.pid })
    })
