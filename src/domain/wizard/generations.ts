// The plugin wizard's pending generations: `generate/start` stores the request body it was given and
// answers an id; `generate/stream/{id}` takes it out (single use). Held in memory per server (boot
// builds one into Deps), each for a few minutes, a bounded number at once.
import { fail } from '../../errors.ts'

/** A request body as stored: its JSON text is at most this long (the prompt carries all of it). */
export const MAX_GENERATION_REQUEST_CHARS = 64 * 1024
/** How long a started generation waits for its stream to open. */
export const GENERATION_TTL_MS = 10 * 60 * 1000
/** Started generations kept at once; the oldest goes first when a new one would pass it. */
export const MAX_PENDING_GENERATIONS = 100

export type GenerationRequest = Record<string, unknown>

export type GenerationStore = {
  /** Stores a request body as given and answers its id; 400 when it is not a small JSON object. */
  put(request: unknown): string
  /** The request of `id`, removed so that a second open finds nothing; undefined when unknown,
   * taken or expired. */
  take(id: string): GenerationRequest | undefined
  readonly size: number
}

export function createGenerationStore(
  options: { ttlMs?: number; max?: number; now?: () => number } = {},
): GenerationStore {
  const ttlMs = options.ttlMs ?? GENERATION_TTL_MS
  const max = options.max ?? MAX_PENDING_GENERATIONS
  const now = options.now ?? Date.now
  // Insertion order is age order: the first entries are the oldest.
  const pending = new Map<string, { request: GenerationRequest; until: number }>()

  const sweep = () => {
    const at = now()
    for (const [id, entry] of pending) {
      if (entry.until > at) break
      pending.delete(id)
    }
  }

  return {
    put(request) {
      if (typeof request !== 'object' || request === null || Array.isArray(request))
        throw fail.bad_request('The generation request must be a JSON object.')
      if (JSON.stringify(request).length > MAX_GENERATION_REQUEST_CHARS)
        throw fail.payload_too_large(
          `The generation request must be at most ${MAX_GENERATION_REQUEST_CHARS / 1024} KiB of JSON.`,
        )
      sweep()
      while (pending.size >= max) {
        const oldest = pending.keys().next().value
        if (oldest === undefined) break
        pending.delete(oldest)
      }
      const id = crypto.randomUUID()
      pending.set(id, { request: request as GenerationRequest, until: now() + ttlMs })
      return id
    },
    take(id) {
      sweep()
      const entry = pending.get(id)
      if (!entry) return undefined
      pending.delete(id)
      return entry.request
    },
    get size() {
      sweep()
      return pending.size
    },
  }
}
