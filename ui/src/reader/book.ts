// What the reader reads: one archive, or a Tankoubon read straight through its members in order.
// Pages are numbered 1..N globally; the server's Tankoubon routes take the same global numbers.
import { api, apiUrl } from '../api.ts'
import type { ArchiveMeta, Bookmark, FullTankoubon } from '../types.ts'
import { isWide, type WidePages } from './spreads.ts'

export type Member = { id: string; title: string; start: number; count: number }

export type Book = {
  kind: 'archive' | 'tank'
  id: string
  title: string
  /** Absolute page URLs, in reading order. */
  pages: string[]
  /** The saved page (1-based), 0 when never read. */
  progress: number
  toc: { page: number; title: string }[]
  /** Tankoubon members with their first global page; the archive itself otherwise. */
  members: Member[]
}

type Files = { job: number; pages: string[] }

/** The files route gives root-relative URLs (LANraragi clients prepend their base URL). */
const absolute = (url: string) => new URL(url, location.origin).href

const filesOf = (id: string) =>
  api<Files>(`/api/archives/${encodeURIComponent(id)}/files`).then((f) => f.pages.map(absolute))

export const isTankId = (id: string) => id.startsWith('TANK_')

export async function loadBook(id: string): Promise<Book> {
  return isTankId(id) ? loadTankoubon(id) : loadArchive(id)
}

async function loadArchive(id: string): Promise<Book> {
  const [meta, pages] = await Promise.all([
    api<ArchiveMeta>(`/api/archives/${encodeURIComponent(id)}/metadata`),
    filesOf(id),
  ])
  return {
    kind: 'archive',
    id,
    title: meta.title,
    pages,
    progress: Number(meta.progress) || 0,
    toc: [...(meta.toc ?? [])].sort((a, b) => a.page - b.page),
    members: [{ id, title: meta.title, start: 1, count: pages.length }],
  }
}

async function loadTankoubon(id: string): Promise<Book> {
  const full = await api<FullTankoubon>(`/api/tankoubons/${encodeURIComponent(id)}/full`)
  const members = full.result.full_data
  const lists = await Promise.all(members.map((m) => filesOf(m.arcid)))
  const book: Book = {
    kind: 'tank',
    id,
    title: full.result.name,
    pages: lists.flat(),
    progress: Number(full.result.progress) || 0,
    toc: [],
    members: [],
  }
  let start = 1
  members.forEach((m, i) => {
    const count = lists[i]!.length
    book.members.push({ id: m.arcid, title: m.title, start, count })
    if (count > 0) book.toc.push({ page: start, title: m.title })
    start += count
  })
  return book
}

/** The member holding a global page, and the page's number inside it. */
export function locate(book: Book, page: number): { member: Member; local: number } {
  const member =
    book.members.find((m) => page >= m.start && page < m.start + m.count) ?? book.members[0]!
  return { member, local: page - member.start + 1 }
}

/** Archive routes for an archive, Tankoubon routes (global pages) for a Tankoubon. */
const base = (book: Book) =>
  `/api/${book.kind === 'tank' ? 'tankoubons' : 'archives'}/${encodeURIComponent(book.id)}`

export function saveProgress(book: Book, page: number): Promise<unknown> {
  return api(`${base(book)}/progress/${page}`, { method: 'PUT' })
}

/** Reading clears the New flag (admin only: a guest's attempt is dropped quietly). */
export async function clearNewFlag(book: Book): Promise<void> {
  await Promise.all(
    book.members.map((m) =>
      api(`/api/archives/${encodeURIComponent(m.id)}/isnew`, { method: 'DELETE' }).catch(() => {}),
    ),
  )
}

type Dimensions = { dimensions: { page: number; width: number; height: number }[] }

/**
 * Which pages are wide, from the server's page sizes, per member in global order. A member the
 * server cannot measure (or pages past its limit) stay unknown: they pair as normal pages.
 */
export async function loadWidePages(book: Book): Promise<WidePages> {
  const lists = await Promise.all(
    book.members.map(async (m) => {
      const wide: (boolean | undefined)[] = Array.from({ length: m.count }, () => undefined)
      try {
        const sizes = await api<Dimensions>(
          `/api/archives/${encodeURIComponent(m.id)}/page-dimensions`,
        )
        for (const size of sizes.dimensions)
          if (size.page >= 1 && size.page <= m.count) wide[size.page - 1] = isWide(size)
      } catch {
        // Sizes are a refinement: without them the pages pair in plain order.
      }
      return wide
    }),
  )
  return lists.flat()
}

export function pageThumbnail(book: Book, page: number): string {
  const { member, local } = locate(book, page)
  return apiUrl(`/api/archives/${encodeURIComponent(member.id)}/thumbnail`, { page: local })
}

export const listBookmarks = (book: Book) => api<Bookmark[]>(`${base(book)}/bookmarks`)

export const addBookmark = (book: Book, page: number) =>
  api(`${base(book)}/bookmarks/${page}`, { method: 'POST' })

export const removeBookmark = (book: Book, page: number) =>
  api(`${base(book)}/bookmarks/${page}`, { method: 'DELETE' })

export const nameBookmark = (book: Book, page: number, name: string) =>
  api(`${base(book)}/bookmarks/${page}/name`, { method: 'PUT', json: { name } })
