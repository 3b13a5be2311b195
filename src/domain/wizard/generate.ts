// Writing a plugin with the language model (GET /api/plugin-wizard/generate/stream/{id}): the
// stored request becomes a prompt, the model's answer is relayed as it is written, and the code
// in it is checked in the sandbox before the generation is done. Nothing is installed here.
import type { Deps } from '../../deps.ts'
import { AppError } from '../../errors.ts'
import { checkPluginSource, stripCodeFences } from './check-source.ts'
import type { GenerationRequest } from './generations.ts'
import { generationPrompt } from './prompt.ts'

/** An answer longer than this is not one plugin file: the generation stops there. */
const MAX_ANSWER_CHARS = 256 * 1024

export type GenerationPhase = 'prompting' | 'writing' | 'checking'

export type GenerationDone = {
  source: string
  /** Where save would install it (`custom/<type>/<stem>`), when the checks pass. */
  namespace: string | null
  filename: string | null
  type: string | null
  check: { ok: boolean; errors: string[] }
}

/** A failed generation, as its stream's `error` event carries it. */
export class GenerationError extends Error {
  constructor(
    readonly code: 'no_provider_key' | 'model_failed' | 'no_code',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

export async function generatePlugin(
  deps: Pick<Deps, 'llm' | 'sandbox'>,
  request: GenerationRequest,
  on: { phase(phase: GenerationPhase): void; delta(text: string): void },
  signal: AbortSignal,
): Promise<GenerationDone> {
  if (!deps.llm.configured())
    throw new GenerationError('no_provider_key', 'No language-model provider key is configured.')
  on.phase('prompting')
  const messages = await generationPrompt(request)
  on.phase('writing')
  let answer = ''
  try {
    // The client's time budget holds per delta: a long answer that keeps coming is not cut.
    for await (const text of deps.llm.stream(messages, { signal })) {
      answer += text
      on.delta(text)
      if (answer.length > MAX_ANSWER_CHARS)
        throw new GenerationError('model_failed', 'The model wrote more than one plugin file.')
    }
  } catch (error) {
    if (error instanceof GenerationError) throw error
    const message = error instanceof AppError ? error.message : 'The model did not answer.'
    throw new GenerationError('model_failed', `The model failed: ${message}`, { cause: error })
  }
  const source = stripCodeFences(answer)
  if (source.trim() === '') throw new GenerationError('no_code', 'The model answered no code.')
  on.phase('checking')
  const check = await checkPluginSource(deps, source)
  return check.ok
    ? {
        source,
        namespace: check.namespace,
        filename: check.filename,
        type: check.manifest.type,
        check: { ok: true, errors: [] },
      }
    : {
        source,
        namespace: null,
        filename: null,
        type: null,
        check: { ok: false, errors: check.errors },
      }
}
