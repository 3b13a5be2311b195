// createApp(deps) -> Elysia: every area's route files composed; used by boot.ts and HTTP tests.
import { Elysia } from 'elysia'
import type { Deps } from './deps.ts'
import { requestContext } from './http/context.ts'
import { cors } from './http/cors.ts'
import { securityHeaders } from './http/security-headers.ts'
import { requestIds } from './http/request-id.ts'
import { methodNotAllowed } from './http/method-not-allowed.ts'
import { routeFiles, SERVER_AREAS } from './areas/assemble.ts'
import type { AnyArea } from './areas/area.ts'

export function createApp(deps: Deps, areas: readonly AnyArea[] = SERVER_AREAS) {
  // The route list is read on the first miss, after every route below is registered.
  let routes: () => readonly { method: string; path: string }[] = () => []
  const app = new Elysia()
    .use(requestIds())
    .use(securityHeaders())
    .use(cors(deps))
    .use(methodNotAllowed(() => routes()))
    .use(requestContext(deps))
  // Every area's route files, in the area list's order (src/areas/index.ts).
  for (const file of routeFiles(areas)) app.use(file.routes(deps))
  routes = () => app.routes
  return app
}

export type App = ReturnType<typeof createApp>
