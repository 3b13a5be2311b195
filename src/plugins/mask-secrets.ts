// A plugin's secret arguments kept out of what its runs report: the message of a run that fails
// ("login refused for user:hunter2") reaches job results, which guest tokens list, and the log.
// Every occurrence of a secret value in such a text becomes `***`.
import { isSecretParameter, type PluginParameter } from './manifest.ts'

/** Shorter values are not masked: a secret "1" would garble every message holding a 1. */
const MIN_MASKED_CHARS = 4

/** The saved values of the secret parameters, as a run's `ctx.args` holds them. */
export function secretValuesOf(
  params: readonly PluginParameter[],
  args: Record<string, unknown>,
): string[] {
  const values: string[] = []
  params.forEach((param, i) => {
    const value = args[param.name ?? String(i)]
    if (!isSecretParameter(param)) return
    if (typeof value === 'string' || typeof value === 'number') {
      const text = String(value).trim()
      if (text.length >= MIN_MASKED_CHARS) values.push(text)
    }
  })
  // Longest first: a secret holding another is masked whole.
  return values.sort((a, b) => b.length - a.length)
}

export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) out = out.split(secret).join('***')
  return out
}
