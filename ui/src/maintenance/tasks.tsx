// The library tasks: each one button, jobs with their progress, immediate answers as text.
import { loadSession } from '../session.ts'
import { notifyError } from '../components/toast.tsx'
import { JobAction } from './job-action.tsx'

export function TasksSection({ onDropped }: { onDropped: () => void }) {
  return (
    <section class="stack" aria-labelledby="maint-tasks">
      <h2 id="maint-tasks">Library tasks</h2>
      <div class="maint-grid">
        <JobAction
          title="Regenerate thumbnails"
          description="Makes the covers that are missing."
          button="Regenerate missing thumbnails"
          path="/api/regen_thumbs"
        />
        <JobAction
          title="Remake every thumbnail"
          description="Makes every cover again, even existing ones. Slow on a large library."
          button="Remake all thumbnails"
          path="/api/regen_thumbs"
          query={{ force: '1' }}
          confirm="Remake every cover?"
        />
        <JobAction
          title="Rescan content folder"
          description="Catalogues new files and notices removed ones."
          button="Rescan"
          path="/api/shinobu/rescan"
        />
        <JobAction
          title="Rebuild search index"
          description="Builds the search index again from the database."
          button="Rebuild index"
          path="/api/database/rebuild-index"
        />
        <JobAction
          title="Clean database"
          description="Deletes the metadata of archives whose files are gone."
          button="Clean database"
          path="/api/database/clean"
          confirm="Delete metadata of missing archives?"
          danger
        />
        <JobAction
          title="Clean temporary folder"
          description="Empties the server's temp folder (extracted pages, uploads in progress)."
          button="Clean temp folder"
          path="/api/tempfolder"
          method="DELETE"
          confirm="Empty the temp folder?"
          danger
        />
        <JobAction
          title="Clear New flags"
          description="Marks every archive as not new."
          button="Clear all New flags"
          path="/api/database/isnew"
          method="DELETE"
          confirm="Clear the New flag on every archive?"
        />
        <JobAction
          title="Repair mojibake"
          description="Repairs titles, tags and names stored with a broken text encoding."
          button="Repair mojibake"
          path="/api/database/scripts/repair-mojibake"
          confirm="Rewrite damaged text in the database?"
        />
        <JobAction
          title="Subfolders to categories"
          description="One static category per content subfolder."
          button="Make categories"
          path="/api/database/scripts/subfolders-to-categories"
          confirm="Create categories from subfolders?"
        />
        <JobAction
          title="Subfolders to Tankoubons"
          description="One Tankoubon per first-level subfolder; each run creates them again."
          button="Make Tankoubons"
          path="/api/database/scripts/subfolders-to-tankoubons"
          confirm="Create Tankoubons from subfolders?"
        />
        <DropTask onDropped={onDropped} />
      </div>
    </section>
  )
}

/** Dropping signs every session out: the login state is read again afterwards. */
function DropTask({ onDropped }: { onDropped: () => void }) {
  return (
    <JobAction
      title="Drop database"
      description="Deletes every archive row, category, Tankoubon and setting (a snapshot keeps them; a rescan brings the files back). Signs you out."
      button="Drop database"
      path="/api/database/drop"
      confirm="Drop the whole database?"
      danger
      onAnswer={() => {
        onDropped()
        loadSession().catch(notifyError)
      }}
    />
  )
}
