// A restore written a slice at a time: each slice is its own transaction and the event loop turns
// between slices, so a big document no longer holds every request for its whole write (20,030
// categories held the server 9.5 s). A document that fits in one slice is still one transaction.
import type { Deps } from '../../deps.ts'
import { addMember } from '../collections/category-save.ts'
import { commitInSlices, type Write } from '../commit.ts'
import { nextTurn } from '../../model/each-limited.ts'
import {
  applyArchive,
  applyCategory,
  applyTankoubon,
  emptyCounts,
  mapMembers,
  matchArchives,
  type ApplyCounts,
  type ApplyOptions,
} from './apply-document.ts'
import type { BackupDocument } from './backup-document.ts'

/** Rows written per transaction: a record counts one, and so does each member it lists. */
export const RESTORE_SLICE_UNITS = 500

type Step = { units: number; run: (w: Write) => void }

/** The document as steps in write order: archives, Tankoubons, then categories. */
function stepsOf(
  doc: BackupDocument,
  local: Map<string, string>,
  options: ApplyOptions,
  counts: ApplyCounts,
): Step[] {
  const steps: Step[] = []
  for (const record of doc.archives)
    steps.push({ units: 1, run: (w) => applyArchive(w, record, local, options, counts) })
  for (const tank of doc.tankoubons)
    steps.push({
      units: 1 + tank.archives.length,
      run: (w) => applyTankoubon(w, tank, local, options, counts),
    })
  for (const category of doc.categories) {
    const members = category.archives ?? []
    const first = members.slice(0, RESTORE_SLICE_UNITS)
    steps.push({
      units: 1 + first.length,
      run: (w) => applyCategory(w, { ...category, archives: first }, local, options, counts),
    })
    // A long member list goes on in later slices, appended as the first part was.
    if ((category.search ?? '').trim() !== '') continue
    for (let at = first.length; at < members.length; at += RESTORE_SLICE_UNITS) {
      const part = members.slice(at, at + RESTORE_SLICE_UNITS)
      steps.push({
        units: part.length,
        run: (w) => {
          for (const member of mapMembers(w, part, local, counts))
            addMember(w, category.catid, member)
        },
      })
    }
  }
  return steps
}

/**
 * Writes `doc` in overwrite mode (a restore), RESTORE_SLICE_UNITS rows per transaction. A failure
 * part way leaves the slices before it written; the document is checked whole before the first,
 * and restoring it again completes it. `progress` hears the fraction written after each slice.
 */
export async function restoreInSlices(
  deps: Pick<Deps, 'db' | 'events'>,
  doc: BackupDocument,
  progress: (fraction: number) => void = () => undefined,
): Promise<ApplyCounts> {
  const counts = emptyCounts()
  const options: ApplyOptions = { mode: 'overwrite' }
  const local = matchArchives({ db: deps.db, events: [] }, doc.archives)
  const steps = stepsOf(doc, local, options, counts)
  const total = steps.reduce((sum, step) => sum + step.units, 0)
  let done = 0
  for (let at = 0; at < steps.length;) {
    const slice: Step[] = []
    let units = 0
    while (at < steps.length && (slice.length === 0 || units < RESTORE_SLICE_UNITS)) {
      const step = steps[at++]!
      slice.push(step)
      units += step.units
    }
    await commitInSlices(deps, (w) => slice.forEach((step) => step.run(w)))
    done += units
    progress(done / total)
    if (at < steps.length) await nextTurn()
  }
  return counts
}
