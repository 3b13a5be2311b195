// Tankoubon rename suggestions (docs/llm.md): the language model reads the Tankoubon's name and its
// members' names in reading order and suggests a name for the Tankoubon and one per chapter, or for
// a single chapter. Suggestions only: nothing is written.
import { Type } from '@sinclair/typebox'
import type { Deps } from '../../deps.ts'
import { findArchives } from '../../db/repos/archives.repo.ts'
import { fail } from '../../errors.ts'
import type { ChatMessage } from '../../llm/client.ts'
import { requireTankoubon, visibleMembers } from './tank-record.ts'

/** Members sent to the model at most; a larger Tankoubon is refused rather than cut. */
export const MAX_RENAME_MEMBERS = 300
/** Neighbours on each side sent as context with a single chapter. */
const CHAPTER_CONTEXT = 10
const NAME_MAX = 255

const Name = Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: '\\S' })

export type ChapterSuggestion = { archive: string; current: string; suggested: string }

export type RenameSuggestions = {
  id: string
  current: string
  suggested: string
  chapters: ChapterSuggestion[]
}

export type ChapterRename = {
  id: string
  archiveIndex: number
  chapter: ChapterSuggestion
}

type Member = { id: string; title: string; filename: string; tags: string }

const SYSTEM = `You name the volumes and chapters of a comic or manga collection (a "Tankoubon").
You are given the collection's current name and its member archives in reading order, each with
its title and file name. Suggest a clean, consistent name: the series title without scanlator,
language or resolution marks, release-group brackets or file extensions. Keep the original language
of the title. Chapter names follow one pattern across the collection (e.g. "Vol. 1", "Chapter 3",
or the chapter's own subtitle when it has one).`

/** The Tankoubon's members with their names, in reading order (vanished ones left out). */
function membersOf(
  deps: Pick<Deps, 'db'>,
  rawId: string,
): { id: string; name: string; members: Member[] } {
  const row = requireTankoubon(deps, rawId)
  const ids = visibleMembers(deps, row.id, null)
  const byId = new Map(findArchives(deps.db, ids).map((a) => [a.id, a]))
  const members = ids.flatMap((id) => {
    const a = byId.get(id)
    return a ? [{ id, title: a.title, filename: a.filename, tags: a.tags }] : []
  })
  return { id: row.id, name: row.name, members }
}

function requireKey(deps: Pick<Deps, 'llm'>): void {
  // The model is asked only when it can be: no key is a 400 before any database work.
  if (!deps.llm.configured())
    throw fail.bad_request('No language-model provider key is configured.')
}

function describe(members: Member[], from = 0): string {
  return members
    .map(
      (m, i) =>
        `${from + i}. title: ${JSON.stringify(m.title)}; file: ${JSON.stringify(m.filename)}`,
    )
    .join('\n')
}

/** Suggestions for the Tankoubon's name and every chapter's (POST .../ai/rename-suggestions). */
export async function suggestTankRename(
  deps: Pick<Deps, 'db' | 'llm'>,
  rawId: string,
  signal?: AbortSignal,
): Promise<RenameSuggestions> {
  requireKey(deps)
  const tank = membersOf(deps, rawId)
  if (tank.members.length === 0) throw fail.bad_request('The Tankoubon has no archives to name.')
  if (tank.members.length > MAX_RENAME_MEMBERS)
    throw fail.bad_request(
      `The Tankoubon has more than ${MAX_RENAME_MEMBERS} archives; rename its chapters one by one.`,
    )
  const schema = Type.Object({
    name: Name,
    chapters: Type.Array(Name, {
      minItems: tank.members.length,
      maxItems: tank.members.length,
    }),
  })
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `Collection name: ${JSON.stringify(tank.name)}\n` +
        `Members in reading order (${tank.members.length}):\n${describe(tank.members)}\n\n` +
        'Answer {"name": the collection name, "chapters": one name per member, in the same order}.',
    },
  ]
  const answer = await deps.llm.json<{ name: string; chapters: string[] }>(messages, schema, {
    signal,
  })
  return {
    id: tank.id,
    current: tank.name,
    suggested: answer.name.trim(),
    chapters: tank.members.map((m, i) => ({
      archive: m.id,
      current: m.title,
      suggested: answer.chapters[i]!.trim(),
    })),
  }
}

/** A suggestion for one chapter, by its 0-based position (POST .../ai/rename-chapter). */
export async function suggestChapterRename(
  deps: Pick<Deps, 'db' | 'llm'>,
  rawId: string,
  archiveIndex: number,
  signal?: AbortSignal,
): Promise<ChapterRename> {
  requireKey(deps)
  const tank = membersOf(deps, rawId)
  const target = tank.members[archiveIndex]
  if (!target)
    throw fail.bad_request(
      `archive_index ${archiveIndex} is out of range: the Tankoubon has ${tank.members.length} archives (0-based).`,
    )
  const from = Math.max(0, archiveIndex - CHAPTER_CONTEXT)
  const around = tank.members.slice(from, archiveIndex + CHAPTER_CONTEXT + 1)
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `Collection name: ${JSON.stringify(tank.name)} (${tank.members.length} members)\n` +
        `Members around the one to rename, in reading order:\n${describe(around, from)}\n\n` +
        `Suggest a name for member ${archiveIndex} only, in the pattern of its neighbours. ` +
        'Answer {"name": the chapter name}.',
    },
  ]
  const answer = await deps.llm.json<{ name: string }>(messages, Type.Object({ name: Name }), {
    signal,
  })
  return {
    id: tank.id,
    archiveIndex,
    chapter: { archive: target.id, current: target.title, suggested: answer.name.trim() },
  }
}
