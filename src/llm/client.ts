// The language-model provider: one small client for OpenAI-compatible chat completions, with a
// timeout, bounded retries, streaming, and JSON answers checked against a schema before use.
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { AppError, fail } from '../errors.ts'
import { createLogger } from '../log.ts'

const log = createLogger('llm')

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string }

export type LlmCallOptions = { signal?: AbortSignal; timeoutMs?: number }

export type LlmClient = {
  /** A key (and base URL and model) is configured, from the environment or the settings. */
  configured(): boolean
  /** One completion whose content is JSON checked against the TypeBox schema; throws AppError. */
  json<T>(messages: ChatMessage[], schema: TSchema, options?: LlmCallOptions): Promise<T>
  /** One streamed completion: the content deltas as they arrive (SSE `data:` lines of the provider). */
  stream(messages: ChatMessage[], options?: LlmCallOptions): AsyncIterable<string>
}

/** Where to reach the provider; read on every call, so a settings change applies at once. */
export type LlmProvider = { baseUrl?: string; apiKey?: string; model?: string }

export type LlmClientOptions = {
  /** The current provider (boot: settings over config, see docs/llm.md). */
  provider: () => LlmProvider
  /** One attempt's budget (json: the whole answer; stream: the wait for each delta). */
  timeoutMs?: number
  /**
   * Further attempts after a 429, a 5xx or a network failure; never after another 4xx, a timeout
   * (a model too slow once is as slow again) or an invalid answer.
   */
  retries?: number
  /** First wait before a retry, doubled each time (a provider's Retry-After wins, up to 30 s). */
  backoffMs?: number
  /** Largest answer read, in bytes. */
  maxResponseBytes?: number
}

export const LLM_TIMEOUT_MS = 60_000
export const LLM_RETRIES = 2
export const LLM_BACKOFF_MS = 500
const MAX_RETRY_AFTER_MS = 30_000
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024

export const NOT_CONFIGURED = 'No language-model provider key is configured.'

type Failure = 'network' | 'timeout' | 'provider_status' | 'invalid_answer'

const providerError = (message: string, reason: Failure, extra?: Record<string, unknown>) =>
  new AppError('bad_gateway', message, { reason, ...extra })

/** `.../v1` -> `.../v1/chat/completions`; a URL already naming the endpoint is kept. */
export function completionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '')
  return trimmed.endsWith('/chat/completions') ? trimmed : `${trimmed}/chat/completions`
}

/** The JSON inside a model's content: bare, or fenced in ``` (some models fence despite asking). */
export function parseJsonContent(content: string): unknown {
  const text = content.trim()
  const fenced = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/i.exec(text)
  return JSON.parse(fenced ? fenced[1]! : text)
}

function schemaInstruction(schema: TSchema): ChatMessage {
  return {
    role: 'system',
    content:
      'Answer with one JSON value only, no prose and no code fences, matching this JSON Schema: ' +
      JSON.stringify(schema),
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(done, ms)
    function done() {
      signal?.removeEventListener('abort', abort)
      resolve()
    }
    function abort() {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', abort, { once: true })
  })

function retryAfterMs(headers: Headers): number | undefined {
  const raw = headers.get('retry-after')
  if (!raw) return undefined
  const secs = Number(raw)
  if (Number.isFinite(secs)) return Math.min(Math.max(0, secs * 1000), MAX_RETRY_AFTER_MS)
  const at = Date.parse(raw)
  return Number.isFinite(at)
    ? Math.min(Math.max(0, at - Date.now()), MAX_RETRY_AFTER_MS)
    : undefined
}

/** A provider's error body, shortened: `{error: {message}}` (OpenAI shape) or the text. */
function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string }
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message
    if (typeof message === 'string') return message.slice(0, 300)
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300)
}

class Retryable extends Error {
  constructor(
    readonly error: AppError,
    readonly waitMs?: number,
  ) {
    super(error.message)
  }
}

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const timeoutMs = options.timeoutMs ?? LLM_TIMEOUT_MS
  const retries = options.retries ?? LLM_RETRIES
  const backoffMs = options.backoffMs ?? LLM_BACKOFF_MS
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES

  function current(): Required<LlmProvider> {
    const p = options.provider()
    if (!p.apiKey || !p.baseUrl || !p.model) throw fail.bad_request(NOT_CONFIGURED)
    return p as Required<LlmProvider>
  }

  /** One POST; a retryable failure is thrown as Retryable, any other as AppError. */
  async function post(
    provider: Required<LlmProvider>,
    body: Record<string, unknown>,
    signal: AbortSignal,
    timedOut: () => boolean,
    budgetMs: number,
  ): Promise<Response> {
    const url = completionsUrl(provider.baseUrl)
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: body.stream ? 'text/event-stream' : 'application/json',
          authorization: `Bearer ${provider.apiKey}`,
        },
        body: JSON.stringify(body),
        // The key must not follow a redirect anywhere: a redirect is an error.
        redirect: 'manual',
        signal,
      })
    } catch (cause) {
      if (timedOut()) throw timeoutError(budgetMs)
      if (signal.aborted) throw cause
      throw new Retryable(
        providerError(
          `The language-model provider could not be reached: ${(cause as Error).message ?? cause}`,
          'network',
        ),
      )
    }
    if (response.ok) return response
    const text = await readText(response, 64 * 1024, signal).catch(() => '')
    // A provider may echo the key it refused ("Incorrect API key provided: sk-..."): never passed on.
    const said = providerMessage(text).replaceAll(provider.apiKey, '[key]')
    const message = `The language-model provider answered ${response.status}: ${said}`
    const error = providerError(message, 'provider_status', { provider_status: response.status })
    log.warn('language-model provider error', { status: response.status, host: hostOf(url) })
    if (response.status === 429 || response.status >= 500)
      throw new Retryable(error, retryAfterMs(response.headers))
    throw error
  }

  async function withRetries<T>(
    signal: AbortSignal | undefined,
    attempt: () => Promise<T>,
  ): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await attempt()
      } catch (err) {
        if (!(err instanceof Retryable)) throw err
        if (n >= retries || signal?.aborted) throw err.error
        await sleep(err.waitMs ?? backoffMs * 2 ** n, signal)
      }
    }
  }

  return {
    configured() {
      const p = options.provider()
      return Boolean(p.apiKey && p.baseUrl && p.model)
    },

    async json<T>(messages: ChatMessage[], schema: TSchema, opts: LlmCallOptions = {}) {
      const provider = current()
      const budget = opts.timeoutMs ?? timeoutMs
      const content = await withRetries(opts.signal, async () => {
        const timeout = AbortSignal.timeout(budget)
        const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout
        const timedOut = () => timeout.aborted && !opts.signal?.aborted
        const response = await post(
          provider,
          {
            model: provider.model,
            messages: [schemaInstruction(schema), ...messages],
            // JSON mode answers an object only: asked for when the schema is one.
            ...(schema.type === 'object' ? { response_format: { type: 'json_object' } } : {}),
            stream: false,
          },
          signal,
          timedOut,
          budget,
        )
        let text: string
        try {
          text = await readText(response, maxBytes, signal)
        } catch (err) {
          if (timedOut()) throw timeoutError(budget)
          throw err
        }
        return completionContent(text)
      })
      let parsed: unknown
      try {
        parsed = parseJsonContent(content)
      } catch {
        throw providerError('The language model did not answer with JSON.', 'invalid_answer')
      }
      const first = Value.Errors(schema, parsed).First()
      if (first)
        throw providerError(
          `The language model's answer does not have the expected shape: ${first.path || '/'} ${first.message}`,
          'invalid_answer',
        )
      return parsed as T
    },

    stream(messages: ChatMessage[], opts: LlmCallOptions = {}): AsyncIterable<string> {
      return {
        async *[Symbol.asyncIterator]() {
          const provider = current()
          const budget = opts.timeoutMs ?? timeoutMs
          // The budget is renewed by every chunk: a long answer that keeps coming is not cut.
          // One controller per attempt: a retry's wait (Retry-After may pass the budget) must not
          // leave the next attempt aborted before it starts.
          let idle = new AbortController()
          let timer: ReturnType<typeof setTimeout> | undefined
          const arm = () => {
            clearTimeout(timer)
            const current = idle
            timer = setTimeout(() => current.abort(), budget)
          }
          const timedOut = () => idle.signal.aborted && !opts.signal?.aborted
          const signalOf = () =>
            opts.signal ? AbortSignal.any([opts.signal, idle.signal]) : idle.signal
          try {
            // Retried only until the provider accepts: once deltas flow, a failure ends the stream.
            const response = await withRetries(opts.signal, () => {
              clearTimeout(timer)
              idle = new AbortController()
              arm()
              return post(
                provider,
                { model: provider.model, messages, stream: true },
                signalOf(),
                timedOut,
                budget,
              )
            })
            if (!response.body) return
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
            let buffer = ''
            let received = 0
            try {
              for (;;) {
                arm()
                let chunk: Awaited<ReturnType<typeof reader.read>>
                try {
                  chunk = await reader.read()
                } catch (err) {
                  if (timedOut()) throw timeoutError(budget)
                  if (opts.signal?.aborted) throw err
                  throw providerError(
                    `The language-model stream broke off: ${(err as Error).message ?? err}`,
                    'network',
                  )
                }
                if (chunk.done) break
                received += chunk.value.length
                if (received > maxBytes)
                  throw providerError('The language-model answer is too long.', 'invalid_answer')
                buffer += chunk.value
                let end: number
                while ((end = buffer.indexOf('\n')) >= 0) {
                  const line = buffer.slice(0, end).replace(/\r$/, '')
                  buffer = buffer.slice(end + 1)
                  const delta = streamDelta(line, provider.apiKey)
                  if (delta === DONE) return
                  if (delta) yield delta
                }
              }
              const delta = streamDelta(buffer.trim(), provider.apiKey)
              if (delta && delta !== DONE) yield delta
            } finally {
              await reader.cancel().catch(() => {})
            }
          } finally {
            clearTimeout(timer)
          }
        },
      }
    },
  }
}

const DONE = Symbol('done')

/** One SSE line of a streamed completion: its content delta, DONE, or nothing. */
function streamDelta(line: string, apiKey: string): string | typeof DONE | undefined {
  if (!line.startsWith('data:')) return undefined
  const data = line.slice(5).trim()
  if (data === '[DONE]') return DONE
  if (!data) return undefined
  let event: unknown
  try {
    event = JSON.parse(data)
  } catch {
    throw providerError(
      'The language-model stream sent an event that is not JSON.',
      'invalid_answer',
    )
  }
  const e = event as { choices?: { delta?: { content?: unknown } }[]; error?: unknown }
  if (e.error !== undefined)
    throw providerError(
      `The language-model provider reported an error: ${providerMessage(JSON.stringify(event)).replaceAll(apiKey, '[key]')}`,
      'provider_status',
    )
  const content = e.choices?.[0]?.delta?.content
  return typeof content === 'string' && content.length > 0 ? content : undefined
}

/** `choices[0].message.content` of a chat-completions answer. */
function completionContent(text: string): string {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw providerError('The language-model provider did not answer with JSON.', 'invalid_answer')
  }
  const content = (body as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]
    ?.message?.content
  if (typeof content !== 'string')
    throw providerError(
      'The language-model provider answered without a message content.',
      'invalid_answer',
    )
  return content
}

function timeoutError(ms: number): AppError {
  return providerError(`The language-model provider did not answer within ${ms} ms.`, 'timeout')
}

async function readText(response: Response, cap: number, signal: AbortSignal): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > cap)
        throw providerError('The language-model answer is too long.', 'invalid_answer')
      chunks.push(value)
    }
  } catch (err) {
    await reader.cancel().catch(() => {})
    throw err
  }
  return Buffer.concat(chunks).toString('utf8')
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return '?'
  }
}
