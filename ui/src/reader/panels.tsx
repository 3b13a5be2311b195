// The reader's side panels: table of contents, bookmarks (named), and a strip of page thumbnails.
// Every text here comes from archives or users: rendered as text only.
import { useEffect, useRef, useState } from 'preact/hooks'
import { Cover } from '../components/cover.tsx'
import { notify, notifyError } from '../components/toast.tsx'
import type { Bookmark } from '../types.ts'
import { nameBookmark, pageThumbnail, removeBookmark, type Book } from './book.ts'

type Go = (page: number) => void

export function TocPanel({ book, page, onGo }: { book: Book; page: number; onGo: Go }) {
  // The chapter being read is the last one starting at or before the page.
  const current = book.toc.filter((entry) => entry.page <= page).pop()
  return (
    <aside class="reader-panel" aria-label="Contents">
      <h2>Contents</h2>
      {book.toc.length === 0 ? (
        <p class="muted">No chapters.</p>
      ) : (
        <ol class="reader-list">
          {book.toc.map((entry) => (
            <li key={entry.page}>
              <button
                type="button"
                aria-current={entry === current ? 'true' : undefined}
                onClick={() => onGo(entry.page)}
              >
                <span>{entry.title}</span>
                <span class="muted">p. {entry.page}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </aside>
  )
}

type BookmarksProps = {
  book: Book
  bookmarks: Bookmark[]
  canEdit: boolean
  onGo: Go
  onChanged: () => void
}

export function BookmarksPanel({ bookmarks, ...row }: BookmarksProps) {
  return (
    <aside class="reader-panel" aria-label="Bookmarks">
      <h2>Bookmarks</h2>
      {bookmarks.length === 0 ? (
        <p class="muted">No bookmarks yet.</p>
      ) : (
        <ul class="reader-list">
          {bookmarks.map((mark) => (
            <BookmarkRow key={mark.page} mark={mark} {...row} />
          ))}
        </ul>
      )}
    </aside>
  )
}

function BookmarkRow({
  book,
  mark,
  canEdit,
  onGo,
  onChanged,
}: Omit<BookmarksProps, 'bookmarks'> & { mark: Bookmark }) {
  const [name, setName] = useState(mark.name ?? '')
  const save = (e: Event) => {
    e.preventDefault()
    nameBookmark(book, mark.page, name)
      .then(() => {
        notify(`Bookmark on page ${mark.page} saved.`)
        onChanged()
      })
      .catch(notifyError)
  }
  const remove = () => removeBookmark(book, mark.page).then(onChanged).catch(notifyError)
  return (
    <li class="reader-bookmark">
      <button type="button" onClick={() => onGo(mark.page)}>
        <span>{mark.name || `Page ${mark.page}`}</span>
        <span class="muted">p. {mark.page}</span>
      </button>
      {canEdit && (
        <form class="row" onSubmit={save}>
          <input
            aria-label={`Name of the bookmark on page ${mark.page}`}
            value={name}
            maxLength={200}
            placeholder="Name"
            onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit">Save name</button>
          <button
            type="button"
            class="danger"
            onClick={remove}
            aria-label={`Remove the bookmark on page ${mark.page}`}
          >
            Remove
          </button>
        </form>
      )}
    </li>
  )
}

export function PagesStrip({ book, page, onGo }: { book: Book; page: number; onGo: Go }) {
  const strip = useRef<HTMLElement>(null)
  // Opened on the page being read, not on page 1.
  useEffect(() => {
    strip.current
      ?.querySelector('[aria-current]')
      ?.scrollIntoView({ block: 'nearest', inline: 'center' })
  }, [])
  return (
    <nav ref={strip} class="reader-strip" aria-label="Page thumbnails">
      {book.pages.map((_, i) => (
        <button
          key={i}
          type="button"
          class="reader-thumb"
          aria-label={`Go to page ${i + 1}`}
          aria-current={i + 1 === page ? 'page' : undefined}
          onClick={() => onGo(i + 1)}
        >
          <Cover src={pageThumbnail(book, i + 1)} alt="" />
          <span>{i + 1}</span>
        </button>
      ))}
    </nav>
  )
}
