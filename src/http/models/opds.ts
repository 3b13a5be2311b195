// Wire side of the OPDS routes: their query-string and path schemas (strings, parsed here so a
// bad value names itself in a 400), the feed page and the search terms.
import { t } from 'elysia'
import { fail } from '../../errors.ts'
import { parseInteger } from '../params.ts'

const text = t.Optional(t.String())

export const OpdsModel = {
  rootQuery: t.Object({ category: text, page: text }),
  categoryParams: t.Object({ id: t.String() }),
  /** An archive id or a list name (docs/clients.md, "OPDS"). */
  listParams: t.Object({ list: t.String() }),
  pageQuery: t.Object({ page: text }),
  searchQuery: t.Object({ q: text, page: text }),
  pseQuery: t.Object({ page: text, zero_based: text, max_width: text }),
}

/** Feed pages past this are refused: the offset stays far within what the index pages. */
const MAX_FEED_PAGE = 1_000_000
/** Search terms longer than this are refused before they reach the filter parser. */
const MAX_QUERY_CHARS = 4096

/** A feed's `page`: from 1, the first by default. */
export const parseFeedPage = (value: string | undefined) =>
  parseInteger(value, 'page', { min: 1, max: MAX_FEED_PAGE, fallback: 1 })

/** The search feed's `q`, trimmed. */
export function parseSearchTerms(raw: string | undefined): string {
  const q = (raw ?? '').trim()
  if (q.length > MAX_QUERY_CHARS)
    throw fail.bad_request(`q is longer than ${MAX_QUERY_CHARS} characters.`)
  return q
}
