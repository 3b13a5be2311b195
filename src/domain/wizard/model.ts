// The wizard's calls of the language model: refused (400) without a provider key, and answered
// only as JSON that passes the feature's schema (the client checks it; a failure is its 502).
import type { TSchema, Static } from '@sinclair/typebox'
import type { Deps } from '../../deps.ts'
import { AppError, fail } from '../../errors.ts'
import type { ChatMessage } from '../../llm/client.ts'

export function requireModel(deps: Pick<Deps, 'llm'>): void {
  if (!deps.llm.configured())
    throw fail.bad_request('No language-model provider key is configured.')
}

export async function askModel<S extends TSchema>(
  deps: Pick<Deps, 'llm'>,
  messages: ChatMessage[],
  schema: S,
  signal?: AbortSignal,
): Promise<Static<S>> {
  try {
    // The client's own time budget and retries apply (src/llm/client.ts).
    return await deps.llm.json<Static<S>>(messages, schema, signal ? { signal } : {})
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError('internal', 'The language model failed.', undefined, { cause: error })
  }
}
