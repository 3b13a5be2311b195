// Language-model routes: whether a provider is configured, Tankoubon rename suggestions, and
// Tankoubon group suggestions with their ignore list. Without a provider key the model routes
// answer 400; the ignore list works without one.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { suggestChapterRename, suggestTankRename } from '../../domain/collections/tank-rename.ts'
import {
  ignoreGroupSuggestion,
  listIgnoredGroupSuggestions,
  suggestGroups,
  unignoreGroupSuggestion,
} from '../../domain/collections/group-suggestions.ts'
import {
  LlmModel,
  toWireChapterRename,
  toWireGroupSuggestions,
  toWireIgnored,
  toWireRenameSuggestions,
} from '../models/llm.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const llmPolicy = {
  // docs/llm.md: without a provider key the model routes answer 400
  'GET /api/llm/key-status': { op: 'llm_key_status', access: 'any' },
  'POST /api/tankoubons/:id/ai/rename-suggestions': {
    op: 'ai_rename_suggestions',
    access: 'admin',
  },
  'POST /api/tankoubons/:id/ai/rename-chapter': { op: 'ai_rename_chapter', access: 'admin' },
  'POST /api/tankoubons/ai-group-suggestions': { op: 'ai_group_suggestions', access: 'admin' },
  'POST /api/tankoubons/ai-group-suggestions/ignore': {
    op: 'ignore_group_suggestion',
    access: 'admin',
  },
  'DELETE /api/tankoubons/ai-group-suggestions/ignore': {
    op: 'unignore_group_suggestion',
    access: 'admin',
  },
  'GET /api/tankoubons/ai-group-suggestions/ignored': {
    op: 'ignored_group_suggestions',
    access: 'any',
  },
} satisfies PolicyRows

export const llmRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.llm' })
    .use(requestContext(deps))
    .get('/api/llm/key-status', () => ({ configured: deps.llm.configured() }))
    .post(
      '/api/tankoubons/:id/ai/rename-suggestions',
      async ({ params, request }) =>
        ok(toWireRenameSuggestions(await suggestTankRename(deps, params.id, request.signal))),
      { params: LlmModel.params },
    )
    .post(
      '/api/tankoubons/:id/ai/rename-chapter',
      async ({ params, body, request }) =>
        ok(
          toWireChapterRename(
            await suggestChapterRename(deps, params.id, body.archive_index, request.signal),
          ),
        ),
      { params: LlmModel.params, body: LlmModel.chapterBody },
    )
    .post(
      '/api/tankoubons/ai-group-suggestions',
      async ({ body, request }) =>
        ok(
          toWireGroupSuggestions(
            await suggestGroups(deps, { limit: body?.limit, signal: request.signal }),
          ),
        ),
      { body: LlmModel.groupBody },
    )
    .post(
      '/api/tankoubons/ai-group-suggestions/ignore',
      ({ body }) => ok(toWireIgnored(ignoreGroupSuggestion(deps, body.archives))),
      { body: LlmModel.ignoreBody },
    )
    .delete(
      '/api/tankoubons/ai-group-suggestions/ignore',
      ({ body, query }) =>
        ok(
          unignoreGroupSuggestion(deps, {
            key: body?.key ?? query.key,
            archiveIds: body?.archives,
          }),
        ),
      { body: LlmModel.unignoreBody, query: LlmModel.unignoreQuery },
    )
    .get('/api/tankoubons/ai-group-suggestions/ignored', () =>
      ok({ ignored: listIgnoredGroupSuggestions(deps).map(toWireIgnored) }),
    )
