// Routes of the archives area (filled by its step; see the owning issue).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'

export const archivesRoutes = (deps: Deps) => new Elysia({ name: 'routes.archives' }).use(requestContext(deps))
