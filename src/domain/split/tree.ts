// The split tree: an archive's folders, nested archives and pages as one tree, for a viewer that
// lets the user pick outputs. Built from the file listing only: no model call, nothing written
// but the nested archives' temp copies, removed before answering.
import type { Deps } from '../../deps.ts'
import { naturalCompare } from '../../model/natural-sort.ts'
import { requireArchive } from '../archives/lookup.ts'
import { readSplitSource, type SplitSource } from './source.ts'

export type SplitTreeNode = {
  name: string
  /** Page paths as outputs name them; a folder's or nested archive's path is its prefix. */
  path: string
  type: 'folder' | 'archive' | 'page'
  /** Pages in and under a folder or archive. */
  pages?: number
  children?: SplitTreeNode[]
}

export type SplitTree = {
  id: string
  root: SplitTreeNode
  /** Files that are neither pages nor nested archives: a split does not copy them. */
  otherFiles: string[]
}

type Branch = SplitTreeNode & { children: SplitTreeNode[]; pages: number }

/** The tree of a source whose pages are in natural order (children keep that order). */
export function buildSplitTree(source: SplitSource): SplitTreeNode {
  const root: Branch = {
    name: source.archive.title,
    path: '',
    type: 'archive',
    pages: 0,
    children: [],
  }
  const branches = new Map<string, Branch>([['', root]])
  const branchAt = (path: string, type: 'folder' | 'archive'): Branch => {
    const known = branches.get(path)
    if (known) return known
    const cut = path.lastIndexOf('/')
    const parent = branchAt(cut < 0 ? '' : path.slice(0, cut), 'folder')
    const branch: Branch = { name: path.slice(cut + 1), path, type, pages: 0, children: [] }
    parent.children.push(branch)
    branches.set(path, branch)
    return branch
  }
  // Nested archives first, so a folder path never claims their node.
  for (const name of source.nested.keys()) branchAt(name, 'archive')
  for (const page of source.pages) {
    const cut = page.path.lastIndexOf('/')
    const folder = cut < 0 ? '' : page.path.slice(0, cut)
    const parent = branchAt(folder, 'folder')
    parent.children.push({ name: page.path.slice(cut + 1), path: page.path, type: 'page' })
    for (let at: string | null = folder; at !== null;) {
      branches.get(at)!.pages++
      at = at === '' ? null : at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : ''
    }
  }
  sortChildren(root)
  return root
}

/** Natural order by name at every level (nested archives were placed first to claim paths). */
function sortChildren(node: SplitTreeNode): void {
  if (!node.children) return
  node.children.sort((a, b) => naturalCompare(a.name, b.name))
  for (const child of node.children) sortChildren(child)
}

export async function splitTree(
  deps: Pick<Deps, 'config' | 'db' | 'reader' | 'search' | 'searchState'>,
  rawId: string,
): Promise<SplitTree> {
  const archive = requireArchive(deps, rawId)
  const source = await readSplitSource(deps, archive)
  try {
    return { id: archive.id, root: buildSplitTree(source), otherFiles: source.otherFiles }
  } finally {
    await source.dispose()
  }
}
