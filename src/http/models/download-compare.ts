// Wire shapes of the download comparison routes: params, the side/index queries, the insertions
// body of export-patch, keep-b (and the queue's overwrite).
import { t } from 'elysia'
import { fail } from '../../errors.ts'
import type { Side } from '../../domain/downloads/compare-align.ts'

const INSERTIONS_BODY =
  'Body must be {"insertions": [{"a_index" or "a_filename", "after_filename" or "before_filename"}]}.'

/** One picked page with its anchor; the queue's overwrite body reuses it (with b_index/b_filename). */
export const InsertionItem = t.Object(
  {
    a_index: t.Optional(t.Integer({ minimum: 0, error: INSERTIONS_BODY })),
    a_filename: t.Optional(t.String({ error: INSERTIONS_BODY })),
    b_index: t.Optional(t.Integer({ minimum: 0, error: INSERTIONS_BODY })),
    b_filename: t.Optional(t.String({ error: INSERTIONS_BODY })),
    after_filename: t.Optional(t.String({ error: INSERTIONS_BODY })),
    before_filename: t.Optional(t.String({ error: INSERTIONS_BODY })),
  },
  { additionalProperties: false, error: INSERTIONS_BODY },
)

export const CompareModel = {
  params: t.Object({ id: t.String() }),
  pagesQuery: t.Object({ side: t.Optional(t.String()) }),
  pageQuery: t.Object({ side: t.Optional(t.String()), index: t.Optional(t.String()) }),
  /** export-patch: at least one insertion (checked by the use-case, with its message). */
  exportBody: t.Object(
    { insertions: t.Array(InsertionItem, { error: INSERTIONS_BODY }) },
    { error: INSERTIONS_BODY },
  ),
  /** keep-b: insertions optional, the body too. */
  keepBody: t.Optional(
    t.Object(
      { insertions: t.Optional(t.Array(InsertionItem, { error: INSERTIONS_BODY })) },
      { error: INSERTIONS_BODY },
    ),
  ),
}

export function parseSide(value: string | undefined): Side {
  if (value === 'a' || value === 'b') return value
  throw fail.bad_request('side must be a or b.')
}
