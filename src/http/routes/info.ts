// Server info, temp folder cleaning and the shinobu (watcher) endpoints.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { serverInfo } from '../../domain/info.ts'

export const infoRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.info' })
    .use(requestContext(deps))
    .get('/api/info', () => serverInfo(deps))
