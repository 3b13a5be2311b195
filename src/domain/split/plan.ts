// A split's plan: the outputs asked for (the suggestion, or the caller's own), checked against the
// archive's pages, and what deleting the original needs so that nothing of it is lost.
import { fail } from '../../errors.ts'
import type { SplitSource } from './source.ts'

/** One archive a split writes: its name (the title and file name) and its pages, in order. */
export type SplitOutput = { name: string; pages: string[] }

export const MAX_SPLIT_OUTPUTS = 1000
const MAX_OUTPUT_NAME_BYTES = 200
/** Characters that are not allowed in file names on Windows, or are folder separators. */
const UNSAFE_NAME_CHARACTERS = /[\\/:*?"<>|\x00-\x1f\x7f\u202a-\u202e\u2066-\u2069]/g

/** A file name from an output name: separators and control characters become spaces. */
export function fileNameOf(name: string): string {
  let clean = name.normalize('NFC').replace(UNSAFE_NAME_CHARACTERS, ' ').replace(/\s+/g, ' ')
  clean = clean.trim().replace(/^\.+/, '').trim()
  while (Buffer.byteLength(clean) > MAX_OUTPUT_NAME_BYTES) clean = clean.slice(0, -1)
  return clean.trim() || 'Split'
}

/**
 * The outputs, checked: at least one, each named and holding pages of this archive, no page in
 * two outputs. Names are trimmed; page order is the caller's.
 */
export function checkOutputs(source: SplitSource, outputs: readonly SplitOutput[]): SplitOutput[] {
  if (outputs.length === 0) throw fail.bad_request('A split needs at least one output.')
  if (outputs.length > MAX_SPLIT_OUTPUTS)
    throw fail.bad_request(`A split writes at most ${MAX_SPLIT_OUTPUTS} archives.`)
  const placed = new Set<string>()
  return outputs.map((output, index) => {
    const name = output.name.trim()
    if (!name) throw fail.bad_request(`Output ${index + 1} has no name.`)
    if (output.pages.length === 0) throw fail.bad_request(`Output "${name}" has no pages.`)
    for (const page of output.pages) {
      if (!source.byPath.has(page))
        throw fail.bad_request(
          `Output "${name}": ${JSON.stringify(page)} is not a page of the archive.`,
        )
      if (placed.has(page))
        throw fail.bad_request(`${JSON.stringify(page)} is in more than one output.`)
      placed.add(page)
    }
    return { name, pages: [...output.pages] }
  })
}

/**
 * Deleting the original loses whatever no output carries, so it is refused unless the outputs
 * hold every page and the archive holds nothing else a split cannot copy.
 */
export function assertOriginalCarried(source: SplitSource, outputs: readonly SplitOutput[]): void {
  const refuse = (reason: string) =>
    fail.bad_request(`The original cannot be deleted: ${reason}. Split it without delete_original.`)
  if (source.archive.hasPatch) throw refuse('its patch pages are not carried by a split')
  if (!source.listsEveryFile)
    throw refuse('it is read by extraction, which lists pages only, so other files are unknown')
  const first = source.otherFiles[0]
  if (first !== undefined)
    throw refuse(`it holds files that are not pages (${JSON.stringify(first)})`)
  const carried = outputs.reduce((sum, output) => sum + output.pages.length, 0)
  if (carried !== source.pages.length)
    throw refuse(`${source.pages.length - carried} of its pages are in no output`)
}
