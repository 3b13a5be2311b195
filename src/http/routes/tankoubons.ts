// Routes of the tankoubons area (filled by its step; see the owning issue).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'

export const tankoubonsRoutes = (deps: Deps) => new Elysia({ name: 'routes.tankoubons' }).use(requestContext(deps))
