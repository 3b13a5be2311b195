// Routes of the settings area (filled by its step; see the owning issue).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'

export const settingsRoutes = (deps: Deps) => new Elysia({ name: 'routes.settings' }).use(requestContext(deps))
