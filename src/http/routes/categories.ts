// Routes of the categories area (filled by its step; see the owning issue).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'

export const categoriesRoutes = (deps: Deps) => new Elysia({ name: 'routes.categories' }).use(requestContext(deps))
