// Routes of the database area (filled by its step; see the owning issue).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'

export const databaseRoutes = (deps: Deps) => new Elysia({ name: 'routes.database' }).use(requestContext(deps))
