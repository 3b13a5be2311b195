// The language-model namer of subfolders-to-tankoubons (docs/llm.md): a better Tankoubon name for a
// first-level folder and an artist: or circle: tag, best effort. The script keeps the folder name
// and no tag when this throws or answers nothing (its own fallback).
import { Type } from '@sinclair/typebox'
import type { Deps } from '../../deps.ts'
import { AppError } from '../../errors.ts'
import type { ChatMessage } from '../../llm/client.ts'
import type { FolderNamer } from './subfolders-to-tankoubons.ts'

/** Archive file names of one folder shown to the model (the rest are counted). */
const FILES_SHOWN = 40

const Answer = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
  author_tag: Type.Optional(
    Type.Union([
      Type.String({ maxLength: 255, pattern: '^(?:artist|circle):\\s*\\S' }),
      Type.Null(),
    ]),
  ),
})

const SYSTEM = `You name collections of a comic and manga library. Given a folder name and the
files in it, answer the series or collection name (clean: no release-group brackets, language or
resolution marks, file extensions) and, when the names make it clear, the author as a tag
"artist:<name>" (a person) or "circle:<name>" (a doujin circle or group), in lowercase. Leave
author_tag null when unsure.`

/** The namer, or undefined when no provider is configured (the script then keeps folder names). */
export function llmFolderNamer(
  deps: Pick<Deps, 'llm'>,
  signal?: AbortSignal,
): FolderNamer | undefined {
  if (!deps.llm.configured()) return undefined
  // A provider that is down or too slow for one folder is for the next: the rest of the run keeps
  // folder names at once instead of waiting out a timeout per folder. A bad answer is per folder.
  let down = false
  return async ({ folder, archivePaths }) => {
    if (down) return null
    const files = archivePaths.slice(0, FILES_SHOWN).map((p) => {
      const leaf = p.slice(p.lastIndexOf('/') + 1)
      return `- ${JSON.stringify(leaf)}`
    })
    const more = archivePaths.length - files.length
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content:
          `Folder: ${JSON.stringify(folder)}\nFiles (${archivePaths.length}):\n${files.join('\n')}` +
          `${more > 0 ? `\n(and ${more} more)` : ''}\n\n` +
          'Answer {"name": the collection name, "author_tag": "artist:..." or "circle:..." or null}.',
      },
    ]
    const answer = await deps.llm
      .json<{ name: string; author_tag?: string | null }>(messages, Answer, { signal })
      .catch((error: unknown) => {
        if (error instanceof AppError && error.extra?.reason !== 'invalid_answer') down = true
        throw error
      })
    return { name: answer.name, authorTag: answer.author_tag ?? undefined }
  }
}
