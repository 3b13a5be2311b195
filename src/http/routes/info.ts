// Server info, temp folder cleaning, thumbnail regeneration and the shinobu (watcher) endpoints.
import { Elysia, t } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { fail } from '../../errors.ts'
import { ParamsBody, parseFlag, requestParam } from '../params.ts'
import { serverInfo } from '../../domain/info.ts'
import { cleanTempFolder } from '../../domain/temp-folder.ts'

export const infoRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.info' })
    .use(requestContext(deps))
    .get('/api/info', () => serverInfo(deps))
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
    // API-NOTES' job, plus LANraragi's new_pid (its rescan restarts the watcher process).
    .post('/api/shinobu/rescan', () =>
      ok({ job: deps.contentSync.rescanAndResume(), new_pid: process.pid }),
    )
    // Shinobu is LANraragi's watcher process; ours runs in the server process, hence its pid.
    .get('/api/shinobu', () =>
      ok({ is_alive: deps.contentSync.watching() ? 1 : 0, pid: process.pid }),
    )
    .post('/api/shinobu/stop', () => {
      deps.contentSync.stopWatcher()
      return ok()
    })
    .post('/api/shinobu/restart', () => {
      if (!deps.contentSync.restartWatcher())
        throw fail.internal('The content folder watcher could not be started.')
      return ok({ new_pid: process.pid })
    })
