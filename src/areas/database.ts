// Database maintenance: backup, restore, legacy import, drop, stats, duplicates' routes.
import type { Area } from './area.ts'
import type { LegacyImportArgs } from '../domain/database/import-legacy.ts'
import type { NoArgs } from '../jobs/define-job.ts'
import { databasePolicy, databaseRoutes } from '../http/routes/database.ts'
import { backupJob } from '../jobs/kinds/backup.ts'
import { restoreJob, type RestoreArgs } from '../jobs/kinds/restore.ts'
import { importLegacyJob } from '../jobs/kinds/import-legacy.ts'

type DatabaseJobArgs = { backup: NoArgs; restore: RestoreArgs; import_legacy: LegacyImportArgs }

export const databaseArea: Area<'database', undefined, DatabaseJobArgs> = {
  name: 'database',
  jobs: { backup: backupJob, restore: restoreJob, import_legacy: importLegacyJob },
  routes: [{ routes: databaseRoutes, policy: databasePolicy }],
}
