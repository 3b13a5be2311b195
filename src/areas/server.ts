// Server-wide routes: info and the shinobu endpoints, settings, job status, health.
import type { Area } from './area.ts'
import { infoPolicy, infoRoutes } from '../http/routes/info.ts'
import { settingsPolicy, settingsRoutes } from '../http/routes/settings.ts'
import { jobPolicy, jobRoutes } from '../http/routes/jobs.ts'
import { healthPolicy, healthRoutes } from '../http/routes/health.ts'

export const serverArea: Area<'server'> = {
  name: 'server',
  routes: [
    { routes: infoRoutes, policy: infoPolicy },
    { routes: settingsRoutes, policy: settingsPolicy },
    { routes: jobRoutes, policy: jobPolicy },
    { routes: healthRoutes, policy: healthPolicy },
  ],
}
