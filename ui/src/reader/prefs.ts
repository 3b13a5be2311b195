// How the reader lays pages out, remembered per browser (localStorage), shared by every book.
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

export function setPrefs(patch: Partial<ReaderPrefs>) {
  prefs.value = { ...prefs.value, ...patch }
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs.value))
  } catch {
    // private mode or a full quota: the choice still holds for this visit
  }
}
