// Routes of the search area (filled by its step; see the owning issue).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'

export const searchRoutes = (deps: Deps) => new Elysia({ name: 'routes.search' }).use(requestContext(deps))
