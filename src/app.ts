// createApp(deps) -> Elysia: every route file composed; used by main.ts and every HTTP test.
import { Elysia } from 'elysia'
import type { Deps } from './deps.ts'
import { requestContext } from './http/context.ts'
import { cors } from './http/cors.ts'
import { securityHeaders } from './http/security-headers.ts'
import { requestIds } from './http/request-id.ts'
import { methodNotAllowed } from './http/method-not-allowed.ts'
import { infoRoutes } from './http/routes/info.ts'
import { authRoutes } from './http/routes/auth.ts'
import { settingsRoutes } from './http/routes/settings.ts'
import { jobRoutes } from './http/routes/jobs.ts'
import { archivesRoutes } from './http/routes/archives.ts'
import { searchRoutes } from './http/routes/search.ts'
import { categoriesRoutes } from './http/routes/categories.ts'
import { tankoubonsRoutes } from './http/routes/tankoubons.ts'
import { bookmarksRoutes } from './http/routes/bookmarks.ts'
import { databaseRoutes } from './http/routes/database.ts'
import { pluginsRoutes } from './http/routes/plugins.ts'
import { downloadCompareRoutes } from './http/routes/download-compare.ts'
import { downloadQueueRoutes } from './http/routes/download-queue.ts'
import { splitRoutes } from './http/routes/split.ts'
import { llmRoutes } from './http/routes/llm.ts'
import { pluginWizardRoutes } from './http/routes/plugin-wizard.ts'
import { opdsRoutes } from './http/routes/opds.ts'
import { healthRoutes } from './http/routes/health.ts'
import { uiRoutes } from './http/routes/ui.ts'

export function createApp(deps: Deps) {
  // The route list is read on the first miss, after every route below is registered.
  let routes: () => readonly { method: string; path: string }[] = () => []
  const app = new Elysia()
    .use(requestIds())
    .use(securityHeaders())
    .use(cors(deps))
    .use(methodNotAllowed(() => routes()))
    .use(requestContext(deps))
    .use(infoRoutes(deps))
    .use(authRoutes(deps))
    .use(settingsRoutes(deps))
    .use(jobRoutes(deps))
    .use(archivesRoutes(deps))
    .use(searchRoutes(deps))
    .use(categoriesRoutes(deps))
    .use(llmRoutes(deps))
    .use(tankoubonsRoutes(deps))
    .use(bookmarksRoutes(deps))
    .use(databaseRoutes(deps))
    .use(pluginsRoutes(deps))
    .use(downloadCompareRoutes(deps))
    .use(splitRoutes(deps))
    .use(downloadQueueRoutes(deps))
    .use(pluginWizardRoutes(deps))
    .use(opdsRoutes(deps))
    .use(healthRoutes(deps))
    .use(uiRoutes(deps))
  routes = () => app.routes
  return app
}

export type App = ReturnType<typeof createApp>
