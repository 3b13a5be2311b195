// The reader's bars: title, page position and layout choices on top; a page slider at the bottom.
// Shown and hidden together by the reader (auto-hide); hovering keeps them up.
import type { ComponentChildren } from 'preact'
import { prefs, setPrefs, type Fit, type ReadMode } from './prefs.ts'

export type Panel = 'toc' | 'bookmarks' | 'pages' | null

const MODES: [ReadMode, string][] = [
  ['single', 'Single'],
  ['double', 'Double'],
  ['vertical', 'Vertical'],
]
const FITS: [Fit, string][] = [
  ['width', 'Fit width'],
  ['height', 'Fit height'],
  ['original', 'Original size'],
]

type TopProps = {
  title: string
  position: string
  panel: Panel
  bookmarked: boolean
  canBookmark: boolean
  onPanel: (panel: Panel) => void
  onBookmark: () => void
  onClose: () => void
}

export function TopBar(props: TopProps) {
  const p = prefs.value
  const toggle = (panel: Panel) => props.onPanel(props.panel === panel ? null : panel)
  return (
    <div class="reader-top">
      <div class="reader-title-row">
        <button type="button" onClick={props.onClose} aria-label="Close reader">
          ✕
        </button>
        <strong class="reader-title">{props.title}</strong>
        <span class="reader-position" aria-live="polite">
          {props.position}
        </span>
      </div>
      <div class="reader-controls">
        <Group label="Reading mode">
          {MODES.map(([mode, label]) => (
            <Choice key={mode} on={p.mode === mode} onClick={() => setPrefs({ mode })}>
              {label}
            </Choice>
          ))}
        </Group>
        <Group label="Page fit">
          {FITS.map(([fit, label]) => (
            <Choice key={fit} on={p.fit === fit} onClick={() => setPrefs({ fit })}>
              {label}
            </Choice>
          ))}
        </Group>
        <Group label="Direction">
          <Choice on={p.rtl} onClick={() => setPrefs({ rtl: !p.rtl })}>
            Right to left
          </Choice>
          {p.mode === 'double' && (
            <Choice on={p.coverAlone} onClick={() => setPrefs({ coverAlone: !p.coverAlone })}>
              Cover alone
            </Choice>
          )}
        </Group>
        <Group label="Panels">
          <Choice on={props.panel === 'toc'} onClick={() => toggle('toc')}>
            Contents
          </Choice>
          <Choice on={props.panel === 'bookmarks'} onClick={() => toggle('bookmarks')}>
            Bookmarks
          </Choice>
          <Choice on={props.panel === 'pages'} onClick={() => toggle('pages')}>
            Pages
          </Choice>
          {props.canBookmark && (
            <Choice on={props.bookmarked} onClick={props.onBookmark}>
              {props.bookmarked ? '★ Bookmarked' : '☆ Bookmark page'}
            </Choice>
          )}
        </Group>
      </div>
    </div>
  )
}

function Group({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="reader-group" role="group" aria-label={label}>
      {children}
    </div>
  )
}

function Choice(props: { on: boolean; onClick: () => void; children: ComponentChildren }) {
  return (
    <button
      type="button"
      aria-pressed={props.on}
      class={props.on ? 'on' : ''}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  )
}

type BottomProps = { page: number; count: number; rtl: boolean; onGo: (page: number) => void }

export function BottomBar({ page, count, rtl, onGo }: BottomProps) {
  const read = (e: Event) => Number((e.currentTarget as HTMLInputElement).value)
  return (
    <div class="reader-bottom">
      <input
        type="range"
        aria-label="Page slider"
        min={1}
        max={Math.max(count, 1)}
        value={page}
        dir={rtl ? 'rtl' : 'ltr'}
        onInput={(e) => onGo(read(e))}
      />
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const field = (e.currentTarget as HTMLFormElement).elements.namedItem('page')
          const n = Number((field as HTMLInputElement).value)
          if (Number.isInteger(n) && n >= 1) onGo(n)
        }}
      >
        <input
          type="number"
          name="page"
          aria-label="Page number"
          min={1}
          max={count}
          value={page}
          onChange={(e) => {
            const n = read(e)
            if (Number.isInteger(n) && n >= 1) onGo(n)
          }}
        />
      </form>
      <span class="muted">/ {count}</span>
    </div>
  )
}
