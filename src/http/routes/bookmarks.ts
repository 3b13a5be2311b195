// Routes of the bookmarks area (filled by its step; see the owning issue).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'

export const bookmarksRoutes = (deps: Deps) => new Elysia({ name: 'routes.bookmarks' }).use(requestContext(deps))
