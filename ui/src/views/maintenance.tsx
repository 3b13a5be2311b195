// Maintenance (#/maintenance): backup and restore, legacy import and its snapshots, duplicate
// review, and the library tasks (thumbnails, rescan, index, clean-ups). Every destructive action
// asks first; jobs show their progress in place and in the jobs console.
import { useState } from 'preact/hooks'
import { href } from '../router.ts'
import { BackupSection } from '../maintenance/backup.tsx'
import { DuplicatesSection } from '../maintenance/duplicates.tsx'
import { ImportSection, RestoreSection, SnapshotsSection } from '../maintenance/restore.tsx'
import { TasksSection } from '../maintenance/tasks.tsx'

export function MaintenanceView(_: { parts: string[] }) {
  // Bumped when an import or drop may have written a snapshot.
  const [snapshots, setSnapshots] = useState(0)
  const bump = () => setSnapshots((v) => v + 1)
  return (
    <section class="stack maintenance">
      <h1>Maintenance</h1>
      <p class="muted">
        Background jobs also show in the <a href={href(['jobs'])}>jobs console</a>.
      </p>
      <TasksSection onDropped={bump} />
      <BackupSection />
      <RestoreSection />
      <ImportSection onImported={bump} />
      <SnapshotsSection version={snapshots} />
      <DuplicatesSection />
    </section>
  )
}
