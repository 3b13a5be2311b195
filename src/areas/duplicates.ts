// Duplicate detection: the find_duplicates job (its routes are under /api/database).
import type { Area } from './area.ts'
import type { NoArgs } from '../jobs/define-job.ts'
import { findDuplicatesJob } from '../jobs/kinds/find-duplicates.ts'

type DuplicatesJobArgs = { find_duplicates: NoArgs }

export const duplicatesArea: Area<'duplicates', undefined, DuplicatesJobArgs> = {
  name: 'duplicates',
  jobs: { find_duplicates: findDuplicatesJob },
}
