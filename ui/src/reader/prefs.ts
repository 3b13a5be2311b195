// How the reader lays pages out, remembered per browser (localStorage): the last choice is the
// default for a book never read here, and each book (archive or Tankoubon) keeps its own reading
// mode and direction, so a webtoon opens vertical and a manga right to left without resetting the
// others. Fit is the screen's business and stays shared.
import { signal } from '@preact/signals'

export type ReadMode = 'single' | 'double' | 'vertical'
export type Fit = 'width' | 'height' | 'original'
export type ReaderPrefs = { mode: ReadMode; rtl: boolean; coverAlone: boolean; fit: Fit }

const KEY = 'tankobun.reader'
const DEFAULTS: ReaderPrefs = { mode: 'single', rtl: false, coverAlone: true, fit: 'height' }
const MODES: ReadMode[] = ['single', 'double', 'vertical']
const FITS: Fit[] = ['width', 'height', 'original']

/** Stored values are checked one by one: an old or hand-edited entry falls back per field. */
function load(): ReaderPrefs {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<ReaderPrefs>
    return {
      mode: MODES.includes(saved.mode as ReadMode) ? saved.mode! : DEFAULTS.mode,
      rtl: typeof saved.rtl === 'boolean' ? saved.rtl : DEFAULTS.rtl,
      coverAlone: typeof saved.coverAlone === 'boolean' ? saved.coverAlone : DEFAULTS.coverAlone,
      fit: FITS.includes(saved.fit as Fit) ? saved.fit! : DEFAULTS.fit,
    }
  } catch {
    return { ...DEFAULTS }
  }
}

export const prefs = signal<ReaderPrefs>(load())

/** What a book remembers; by id, the most recently changed last, at most BOOKS_KEPT of them. */
type BookLayout = Pick<ReaderPrefs, 'mode' | 'rtl' | 'coverAlone'>
const BOOKS_KEY = 'tankobun.reader.books'
const BOOKS_KEPT = 500

function loadBooks(): Record<string, BookLayout> {
  try {
    const saved = JSON.parse(localStorage.getItem(BOOKS_KEY) ?? '{}') as unknown
    return saved && typeof saved === 'object' ? (saved as Record<string, BookLayout>) : {}
  } catch {
    return {}
  }
}

function store(key: string, value: unknown) {
  try {
    localStorage.setItem(key, JSON.stringify(value))
  } catch {
    // private mode or a full quota: the choice still holds for this visit
  }
}

/** The book being read: its layout changes are remembered for it. */
let openId: string | null = null

/** Called as a book opens: its own layout if it has one, else the last choice. */
export function openBook(id: string): void {
  openId = id
  const global = load()
  const own = loadBooks()[id]
  prefs.value = {
    ...global,
    mode: MODES.includes(own?.mode as ReadMode) ? own!.mode : global.mode,
    rtl: typeof own?.rtl === 'boolean' ? own.rtl : global.rtl,
    coverAlone: typeof own?.coverAlone === 'boolean' ? own.coverAlone : global.coverAlone,
  }
}

export function setPrefs(patch: Partial<ReaderPrefs>) {
  prefs.value = { ...prefs.value, ...patch }
  store(KEY, prefs.value)
  const layoutChanged = 'mode' in patch || 'rtl' in patch || 'coverAlone' in patch
  if (openId === null || !layoutChanged) return
  const books = loadBooks()
  delete books[openId]
  const { mode, rtl, coverAlone } = prefs.value
  books[openId] = { mode, rtl, coverAlone }
  const ids = Object.keys(books)
  for (const old of ids.slice(0, Math.max(0, ids.length - BOOKS_KEPT))) delete books[old]
  store(BOOKS_KEY, books)
}
