// The run log of an installed plugin's run: what its `console` printed, as the `use` answer and
// the plugin_exec job's result carry it. Bounded (the last lines only) and with the run's secrets
// (saved passwords, keys, the login session's cookies and headers) blanked out, since job results
// are readable by guest tokens.
import type { PluginLogLine } from '../../plugins/host.ts'
import {
  isSecretParameter,
  type LoginSession,
  type PluginManifest,
  type PluginParameter,
} from '../../plugins/manifest.ts'
import { maskSecrets } from '../../plugins/mask-secrets.ts'

/** One line as answers carry it; `level` is the console method (`log`, `warn`, `error`). */
export type RunLogLine = { level: string; message: string }

/** The last lines of a run are kept: a failure's reason is usually near its end. */
export const RUN_LOG_MAX_LINES = 100
/** Characters of the kept lines' messages together. */
export const RUN_LOG_MAX_CHARS = 16 * 1024
/** Shorter values are not blanked: "on", "en" or "1" would blank half the log. */
const MIN_SECRET_LENGTH = 4

/**
 * A parameter holds a secret when its manifest says so (`secret: true`) or, for plugins written
 * before that flag, when its name says so (password, pass_hash, api_key, cookie, token...).
 */
const SECRET_NAME = /pass|secret|token|key|cookie|auth|hash|session/i
export function isSecretParam(param: PluginParameter): boolean {
  return isSecretParameter(param) || (param.name !== undefined && SECRET_NAME.test(param.name))
}

/** The values a run's log must not show: its secret arguments and its login session's. */
export function runSecrets(
  manifest: PluginManifest,
  args: Record<string, unknown>,
  login?: LoginSession,
): string[] {
  const secrets: string[] = []
  ;(manifest.parameters ?? []).forEach((param, i) => {
    const value = args[param.name ?? String(i)]
    if (isSecretParam(param) && (typeof value === 'string' || typeof value === 'number'))
      secrets.push(String(value))
  })
  for (const cookie of login?.cookies ?? []) secrets.push(cookie.value)
  for (const value of Object.values(login?.headers ?? {})) secrets.push(value)
  // Longest first: a secret holding another is blanked whole.
  return [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  )
}

/**
 * The lines a run answers: secrets blanked, then the last RUN_LOG_MAX_LINES lines within
 * RUN_LOG_MAX_CHARS; when earlier lines go, a first line says how many.
 */
export function runLogOf(lines: readonly PluginLogLine[], secrets: string[]): RunLogLine[] {
  const kept: RunLogLine[] = []
  let chars = 0
  for (let i = lines.length - 1; i >= 0 && kept.length < RUN_LOG_MAX_LINES; i--) {
    const line = lines[i]!
    let message = maskSecrets(line.message, secrets)
    if (chars + message.length > RUN_LOG_MAX_CHARS) {
      // The last line alone past the cap keeps its end.
      if (kept.length > 0) break
      message = '…' + message.slice(message.length - RUN_LOG_MAX_CHARS + 1)
    }
    chars += message.length
    kept.push({ level: line.level, message })
  }
  kept.reverse()
  const dropped = lines.length - kept.length
  if (dropped > 0) kept.unshift({ level: 'log', message: `(${dropped} earlier lines not kept)` })
  return kept
}
