// `#/reader/<id>?page=N`: an archive or a Tankoubon (`TANK_...`), full screen. The book loads
// here; reading itself is ui/src/reader/.
import { useApi } from '../components/use-api.ts'
import { usePageTitle } from '../components/page-title.ts'
import { loadBook } from '../reader/book.ts'
import { Reader } from '../reader/reader.tsx'

export function ReaderView({ parts }: { parts: string[] }) {
  const id = parts[0] ?? ''
  const { data: book, error } = useApi(() => loadBook(id), [id])
  usePageTitle(book && book.id === id ? book.title : 'Reader')
  if (error)
    return (
      <div class="reader-message">
        <p role="alert">{error}</p>
        <a href="#/">Back to the library</a>
      </div>
    )
  if (!book || book.id !== id)
    return (
      <div class="reader-message" aria-busy="true">
        <p class="muted">Opening…</p>
      </div>
    )
  return <Reader key={book.id} book={book} />
}
