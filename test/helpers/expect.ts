// Shared assertions: an Env failure (`{operation, success: 0, error}`) with its status.
import { expect } from 'bun:test'
import type { JsonAnswer } from './server.ts'

/** Asserts an Env failure and returns its error text for further checks. */
export async function expectAppError(
  answer: Response | JsonAnswer<unknown>,
  status: number,
  operation?: string,
): Promise<string> {
  const body = answer instanceof Response ? await answer.json() : answer.body
  expect({ status: answer.status, success: (body as { success?: unknown })?.success }).toEqual({
    status,
    success: 0,
  })
  const env = body as { operation?: unknown; error?: unknown }
  if (operation !== undefined) expect(env.operation).toBe(operation)
  expect(typeof env.error).toBe('string')
  return env.error as string
}
