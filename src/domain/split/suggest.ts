// Split suggestions: which outputs a split of an archive would write. Without a model the folder
// structure decides: every folder (or nested archive) that holds pages becomes one output. A
// refiner (the language model, split-refiner.ts) may regroup them; what it answers is checked like
// a user's.
import { stat } from 'node:fs/promises'
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { findSplitSuggestion, saveSplitSuggestion } from '../../db/repos/splits.repo.ts'
import { fail } from '../../errors.ts'
import { naturalCompare } from '../../model/natural-sort.ts'
import { tx } from '../../db/client.ts'
import { requireArchive } from '../archives/lookup.ts'
import { toAbsolutePath } from '../archives/files.ts'
import { checkOutputs, type SplitOutput } from './plan.ts'
import { readSplitSource, type SplitSource } from './source.ts'
import { buildSplitTree, type SplitTreeNode } from './tree.ts'

export type SplitMethod = 'folders' | 'model'

export type SplitSuggestion = {
  id: string
  method: SplitMethod
  outputs: SplitOutput[]
  createdAt: number
}

/** Regroups the folder suggestion (the language model, once a key is configured). */
export type SplitRefiner = (input: {
  title: string
  tree: SplitTreeNode
  outputs: SplitOutput[]
}) => Promise<SplitOutput[]>

/** Where a page's output is decided: its nested archive, else its folder ('' at the top). */
function groupOf(page: SplitSource['pages'][number]): string {
  if (page.nested !== null) return page.nested
  const cut = page.path.lastIndexOf('/')
  return cut < 0 ? '' : page.path.slice(0, cut)
}

/**
 * One output per folder or nested archive holding pages, in natural order, named
 * "<title> - <folder>". Loose pages at the top get their own output, first, named after the
 * title alone: putting them into the first volume would hide extras (a series cover) in it.
 */
export function suggestByFolders(source: SplitSource): SplitOutput[] {
  const groups = new Map<string, string[]>()
  for (const page of source.pages) {
    const group = groupOf(page)
    const list = groups.get(group)
    if (list) list.push(page.path)
    else groups.set(group, [page.path])
  }
  const title = source.archive.title
  return [...groups.keys()].sort(naturalCompare).map((group) => ({
    name: group === '' ? title : `${title} - ${nameOfGroup(source, group)}`,
    pages: groups.get(group)!,
  }))
}

function nameOfGroup(source: SplitSource, group: string): string {
  const leaf = group.slice(group.lastIndexOf('/') + 1)
  if (!source.nested.has(group)) return leaf
  const dot = leaf.lastIndexOf('.')
  return dot > 0 ? leaf.slice(0, dot) : leaf
}

async function fileStampOf(deps: Pick<Deps, 'config'>, archive: ArchiveRow): Promise<string> {
  const info = await stat(toAbsolutePath(deps.config.contentDir, archive.path)).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw fail.not_found('The archive file is missing.')
      throw error
    },
  )
  return `${info.size}:${Math.floor(info.mtimeMs)}`
}

/** Analyses the archive now and stores the result (POST). */
export async function analyzeSplit(
  deps: Pick<Deps, 'config' | 'db' | 'reader' | 'search' | 'searchState'>,
  rawId: string,
  refine?: SplitRefiner,
): Promise<SplitSuggestion> {
  const archive = requireArchive(deps, rawId)
  const source = await readSplitSource(deps, archive)
  try {
    let outputs = suggestByFolders(source)
    let method: SplitMethod = 'folders'
    if (refine) {
      const tree = buildSplitTree(source)
      outputs = checkOutputs(source, await refine({ title: archive.title, tree, outputs }))
      method = 'model'
    }
    const suggestion = { id: archive.id, method, outputs, createdAt: Math.floor(Date.now() / 1000) }
    const fileStamp = await fileStampOf(deps, archive)
    tx(deps.db, () =>
      saveSplitSuggestion(deps.db, {
        archiveId: archive.id,
        method,
        outputs: JSON.stringify(outputs),
        fileStamp,
        createdAt: suggestion.createdAt,
      }),
    )
    return suggestion
  } finally {
    await source.dispose()
  }
}

/**
 * The stored suggestion (GET); analysed on the first read, and again when the file changed since
 * (its pages may not be the ones stored).
 */
export async function currentSplitSuggestion(
  deps: Pick<Deps, 'config' | 'db' | 'reader' | 'search' | 'searchState'>,
  rawId: string,
): Promise<SplitSuggestion> {
  const archive = requireArchive(deps, rawId)
  const stored = findSplitSuggestion(deps.db, archive.id)
  if (stored && stored.fileStamp === (await fileStampOf(deps, archive)))
    return {
      id: archive.id,
      method: stored.method === 'model' ? 'model' : 'folders',
      outputs: JSON.parse(stored.outputs) as SplitOutput[],
      createdAt: stored.createdAt,
    }
  return analyzeSplit(deps, archive.id)
}
