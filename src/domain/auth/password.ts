// The admin password: argon2id hash at rest, set from config or generated once on first start.
import type { SettingsStore } from '../settings.ts'
import { createLogger } from '../../log.ts'

const log = createLogger('auth')
const HASH_KEY = 'password_hash'

/** '' in the store means protection was disabled on purpose; undefined means never set. */
export function passwordEnabled(settings: SettingsStore): boolean {
  return Boolean(settings.getInternal<string>(HASH_KEY))
}

export async function setAdminPassword(settings: SettingsStore, password: string): Promise<void> {
  const hash = password === '' ? '' : await Bun.password.hash(password, { algorithm: 'argon2id' })
  settings.setInternal(HASH_KEY, hash)
}

export async function verifyAdminPassword(
  settings: SettingsStore,
  password: string,
): Promise<boolean> {
  const hash = settings.getInternal<string>(HASH_KEY)
  if (!hash) return false
  return Bun.password.verify(password, hash)
}

/**
 * A generated password not yet shown by a start that served. Kept in clear only until then: a
 * first start that fails before it listens (a taken port) must not take the password with it.
 */
const PENDING_KEY = 'generated_password_pending'

/**
 * At start: an explicit password replaces the stored one; on a first start without one a random
 * password is generated (only its hash is used from then on) and kept to be shown by
 * announcePendingPassword once the server serves.
 */
export async function ensureAdminPassword(
  settings: SettingsStore,
  configured: string | undefined,
): Promise<void> {
  if (configured !== undefined) {
    await setAdminPassword(settings, configured)
    if (settings.getInternal<string>(PENDING_KEY)) settings.setInternal(PENDING_KEY, null)
    return
  }
  if (settings.getInternal<string>(HASH_KEY) !== undefined) return
  const generated = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')
  await setAdminPassword(settings, generated)
  settings.setInternal(PENDING_KEY, generated)
  log.info('generated an admin password on first start')
}

/**
 * Once the server listens: prints the generated password if no start that served has shown it
 * yet, then forgets it (never logged; only its hash is kept).
 */
export function announcePendingPassword(
  settings: SettingsStore,
  announce: (line: string) => void = (line) => process.stdout.write(line + '\n'),
): void {
  const pending = settings.getInternal<string>(PENDING_KEY)
  if (!pending) return
  announce(`Tankobun: generated admin password (shown once): ${pending}`)
  settings.setInternal(PENDING_KEY, null)
}
