// The shell: header (server name, navigation, theme, log in/out), the view for the current hash
// route, and toasts. Admin pages ask for a login first when the server has a password.
import type { ComponentType } from 'preact'
import { useRef } from 'preact/hooks'
import { route, href } from './router.ts'
import { loggedIn, loginStatus, logOut, serverInfo } from './session.ts'
import { theme, type Theme } from './theme.ts'
import { Toasts, notifyError } from './components/toast.tsx'
import { usePageTitle } from './components/page-title.ts'
import { useViewFocus } from './components/view-focus.ts'
import { LibraryView } from './views/library.tsx'
import { LoginView } from './views/login.tsx'
import { ReaderView } from './views/reader.tsx'
import { ArchiveView } from './views/archive.tsx'
import { UploadView } from './views/upload.tsx'
import { CategoriesView, TankoubonsView } from './views/collections.tsx'
import { DownloadsView } from './views/downloads.tsx'
import { CompareView } from './views/compare.tsx'
import { PluginsView } from './views/plugins.tsx'
import { JobsView } from './views/jobs.tsx'
import { MaintenanceView } from './views/maintenance.tsx'
import { SettingsView } from './views/settings.tsx'
import { TagsView } from './views/tags.tsx'

type ViewEntry = {
  view: ComponentType<{ parts: string[] }>
  /** The tab's title; a view without one names itself (the archive's title). */
  title?: string
  /** Needs a logged-in session. */
  admin?: true
}

/** Route name -> view. */
const VIEWS: Record<string, ViewEntry> = {
  '': { view: LibraryView, title: 'Library' },
  login: { view: LoginView, title: 'Log in' },
  reader: { view: ReaderView },
  archive: { view: ArchiveView },
  upload: { view: UploadView, title: 'Upload', admin: true },
  tags: { view: TagsView, title: 'Tags' },
  categories: { view: CategoriesView, title: 'Categories' },
  tankoubons: { view: TankoubonsView, title: 'Tankoubons' },
  downloads: { view: DownloadsView, title: 'Downloads', admin: true },
  compare: { view: CompareView, title: 'Compare', admin: true },
  plugins: { view: PluginsView, title: 'Plugins', admin: true },
  jobs: { view: JobsView, title: 'Jobs', admin: true },
  maintenance: { view: MaintenanceView, title: 'Maintenance', admin: true },
  settings: { view: SettingsView, title: 'Settings', admin: true },
}

const NAV: [string, string][] = [
  ['', 'Library'],
  ['tags', 'Tags'],
  ['upload', 'Upload'],
  ['downloads', 'Downloads'],
  ['categories', 'Categories'],
  ['tankoubons', 'Tankoubons'],
  ['plugins', 'Plugins'],
  ['jobs', 'Jobs'],
  ['maintenance', 'Maintenance'],
  ['settings', 'Settings'],
]

const THEMES: Theme[] = ['system', 'light', 'dark']

export function App() {
  const { path, parts, malformed } = route.value
  // A malformed address names no view (and no navigation entry is current).
  const name = malformed ? null : (parts[0] ?? '')
  const entry = name === null ? undefined : VIEWS[name]
  const status = loginStatus.value
  const needsLogin = entry?.admin && status !== null && !loggedIn.value
  const View = needsLogin ? LoginView : (entry?.view ?? NotFound)
  // The reader takes the whole screen.
  const bare = name === 'reader'
  usePageTitle(needsLogin ? 'Log in' : entry ? (entry.title ?? null) : 'Not found')
  // Logging in on an admin page shows that page: focus moves to it as after a navigation.
  const main = useRef<HTMLElement>(null)
  useViewFocus(main, needsLogin ? `${path} login` : path)
  return (
    <>
      {!bare && (
        <header class="topbar">
          <a class="brand" href="#/">
            {serverInfo.value?.name || 'Tankobun'}
          </a>
          <nav class="nav" aria-label="Main">
            {NAV.map(([path, label]) => (
              <a key={path} href={`#/${path}`} aria-current={name === path ? 'page' : undefined}>
                {label}
              </a>
            ))}
          </nav>
          <div class="topbar-end">
            <select
              aria-label="Theme"
              value={theme.value}
              onChange={(e) => (theme.value = (e.target as HTMLSelectElement).value as Theme)}
            >
              {THEMES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            {status?.password_enabled &&
              (loggedIn.value ? (
                <button type="button" onClick={() => logOut().catch(notifyError)}>
                  Log out
                </button>
              ) : (
                <a class="button" href={href(['login'])}>
                  Log in
                </a>
              ))}
          </div>
        </header>
      )}
      <main class={bare ? 'bare' : 'page'} ref={main} tabIndex={-1}>
        <View parts={parts.slice(1)} />
      </main>
      <Toasts />
    </>
  )
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no page here. <a href="#/">Back to the library</a>
      </p>
    </section>
  )
}
