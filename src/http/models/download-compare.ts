// Wire shapes of the download comparison routes: params, the side/index queries, the insertions
// body of export-patch, keep-b (and the queue's overwrite), and the comparison's answer (its
// result, pairs and stream events), converted once here.
import { t } from 'elysia'
import { fail } from '../../errors.ts'
import type { Side, UnmatchedPage } from '../../domain/downloads/compare-align.ts'
import type {
  ComparisonResult,
  ComparisonSample,
  SampleEvent,
} from '../../domain/downloads/compare.ts'
import type { InsertionRequest } from '../../domain/downloads/compare-patch.ts'

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

/** One picked page as sent (InsertionItem, or the overwrite body's): only the fields sent. */
export function toInsertionRequest(item: typeof InsertionItem.static): InsertionRequest {
  return {
    ...(item.a_index === undefined ? {} : { aIndex: item.a_index }),
    ...(item.a_filename === undefined ? {} : { aFilename: item.a_filename }),
    ...(item.b_index === undefined ? {} : { bIndex: item.b_index }),
    ...(item.b_filename === undefined ? {} : { bFilename: item.b_filename }),
    ...(item.after_filename === undefined ? {} : { afterFilename: item.after_filename }),
    ...(item.before_filename === undefined ? {} : { beforeFilename: item.before_filename }),
  }
}

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

/** One aligned pair as answered (and streamed). */
export const toWireSample = (p: ComparisonSample) => ({
  a_index: p.aIndex,
  b_index: p.bIndex,
  a_filename: p.aFilename,
  b_filename: p.bFilename,
  distance: p.distance,
  a_sharpness: p.aSharpness,
  b_sharpness: p.bSharpness,
  better: p.better,
})

/** An unmatched page: an anchor the alignment did not find stays absent (not null). */
const toWireUnmatched = (u: UnmatchedPage) => ({
  index: u.index,
  filename: u.filename,
  ...(u.afterFilename === undefined ? {} : { after_filename: u.afterFilename }),
  ...(u.beforeFilename === undefined ? {} : { before_filename: u.beforeFilename }),
})

/** POST compare's fields and the stream's `done` event. */
export const toWireComparison = (r: ComparisonResult) => ({
  pairs: r.pairs.map(toWireSample),
  a_total: r.aTotal,
  b_total: r.bTotal,
  unmatched_a: r.unmatchedA.map(toWireUnmatched),
  unmatched_b: r.unmatchedB.map(toWireUnmatched),
  recommendation: r.recommendation,
  reason: r.reason,
})

/** The stream's `sample` event. */
export const toWireSampleEvent = (e: SampleEvent) => ({
  sample_index: e.sampleIndex,
  phase: e.phase,
  sample: toWireSample(e.sample),
})
