// Database-wide operations: clean, clear all New flags (backup and restore arrive in step 7).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { cleanDatabase } from '../../domain/archives/clean.ts'
import { clearAllNewFlags } from '../../domain/archives/edit.ts'

export const databaseRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.database' })
    .use(requestContext(deps))
    .post('/api/database/clean', async () => ok(await cleanDatabase(deps)))
    .delete('/api/database/isnew', () => {
      const cleared = clearAllNewFlags(deps)
      return ok({ successMessage: `Cleared the New flag on ${cleared} archives.` })
    })
