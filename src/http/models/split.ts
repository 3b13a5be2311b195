// Wire shapes of the archive splitting routes: the tree, the suggestion, the execute body and the
// stream's events (docs/api.md shows them).
import { t } from 'elysia'
import type { SplitProgress } from '../../domain/split/execute.ts'
import type { SplitSuggestion } from '../../domain/split/suggest.ts'
import type { SplitTree } from '../../domain/split/tree.ts'
import { MAX_SPLIT_OUTPUTS } from '../../domain/split/plan.ts'

const EXECUTE_BODY =
  'Body must be {"outputs"?: [{"name": string, "pages": [page path]}], "delete_original"?: boolean}.'

export const SplitModel = {
  params: t.Object({ id: t.String() }),
  /** Both fields optional, the body too: no outputs means the current suggestion. */
  executeBody: t.Optional(
    t.Object(
      {
        outputs: t.Optional(
          t.Array(
            t.Object(
              {
                name: t.String({ maxLength: 1000, error: EXECUTE_BODY }),
                pages: t.Array(t.String({ maxLength: 4096 }), {
                  maxItems: 65_535,
                  error: EXECUTE_BODY,
                }),
              },
              { additionalProperties: false, error: EXECUTE_BODY },
            ),
            { maxItems: MAX_SPLIT_OUTPUTS, error: EXECUTE_BODY },
          ),
        ),
        delete_original: t.Optional(t.Boolean({ error: EXECUTE_BODY })),
      },
      { additionalProperties: false, error: EXECUTE_BODY },
    ),
  ),
}

export function toWireSplitTree(tree: SplitTree) {
  return { id: tree.id, tree: tree.root, other_files: tree.otherFiles }
}

export function toWireSplitSuggestion(suggestion: SplitSuggestion) {
  return {
    id: suggestion.id,
    method: suggestion.method,
    created_at: suggestion.createdAt,
    outputs: suggestion.outputs,
  }
}

export function toWireSplitProgress(p: SplitProgress) {
  return {
    output_index: p.outputIndex,
    outputs: p.outputs,
    pages_done: p.pagesDone,
    pages: p.pages,
  }
}
