// Wire shapes of the language-model routes: key status, Tankoubon rename suggestions, and group
// suggestions with their ignore list (docs/api.md shows them; docs/llm.md explains them).
import { t } from 'elysia'
import {
  MAX_GROUP_LIMIT,
  MAX_IGNORED_IDS,
  type GroupSuggestions,
  type IgnoredGroupSuggestion,
} from '../../domain/collections/group-suggestions.ts'
import type { ChapterRename, RenameSuggestions } from '../../domain/collections/tank-rename.ts'

const CHAPTER_BODY = 'Body must be {"archive_index": integer, 0-based}.'
const GROUP_BODY = `Body must be {"limit"?: integer 1 to ${MAX_GROUP_LIMIT}}.`
const IGNORE_BODY = 'Body must be {"archives": [archive id, at least two]}.'
const UNIGNORE_BODY = 'Body must be {"key": suggestion key} or {"archives": [archive id]}.'

const archiveIds = (error: string) =>
  t.Array(t.String({ maxLength: 64, error }), { maxItems: MAX_IGNORED_IDS, error })

export const LlmModel = {
  params: t.Object({ id: t.String() }),
  chapterBody: t.Object(
    { archive_index: t.Integer({ minimum: 0, maximum: 1_000_000, error: CHAPTER_BODY }) },
    { additionalProperties: false, error: CHAPTER_BODY },
  ),
  groupBody: t.Optional(
    t.Object(
      { limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_GROUP_LIMIT, error: GROUP_BODY })) },
      { additionalProperties: false, error: GROUP_BODY },
    ),
  ),
  ignoreBody: t.Object(
    { archives: archiveIds(IGNORE_BODY) },
    { additionalProperties: false, error: IGNORE_BODY },
  ),
  unignoreBody: t.Optional(
    t.Object(
      {
        key: t.Optional(t.String({ maxLength: 64, error: UNIGNORE_BODY })),
        archives: t.Optional(archiveIds(UNIGNORE_BODY)),
      },
      { additionalProperties: false, error: UNIGNORE_BODY },
    ),
  ),
  unignoreQuery: t.Object({ key: t.Optional(t.String()) }),
}

export function toWireRenameSuggestions(s: RenameSuggestions) {
  return {
    id: s.id,
    current_name: s.current,
    name: s.suggested,
    chapters: s.chapters.map((c, index) => ({
      archive_index: index,
      id: c.archive,
      current: c.current,
      name: c.suggested,
    })),
  }
}

export function toWireChapterRename(r: ChapterRename) {
  return {
    id: r.id,
    archive_index: r.archiveIndex,
    archive: r.chapter.archive,
    current: r.chapter.current,
    name: r.chapter.suggested,
  }
}

export function toWireGroupSuggestions(g: GroupSuggestions) {
  return {
    suggestions: g.suggestions.map((s) => ({
      key: s.key,
      name: s.name,
      reasons: s.reasons,
      archives: s.archives,
    })),
    candidates: g.candidates,
    rejected: g.rejected,
    ignored: g.ignored,
  }
}

export function toWireIgnored(entry: IgnoredGroupSuggestion) {
  return { key: entry.key, archives: entry.archiveIds, ignored_at: entry.ignoredAt }
}
