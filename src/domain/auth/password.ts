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
 * At start: an explicit password replaces the stored one; on a first start without one a random
 * password is generated and printed once (it is never logged again, only its hash is kept).
 */
export async function ensureAdminPassword(
  settings: SettingsStore,
  configured: string | undefined,
  announce: (line: string) => void = (line) => process.stdout.write(line + '\n'),
): Promise<void> {
  if (configured !== undefined) {
    await setAdminPassword(settings, configured)
    return
  }
  if (settings.getInternal<string>(HASH_KEY) !== undefined) return
  const generated = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')
  await setAdminPassword(settings, generated)
  announce(`Tankobun: generated admin password (shown once): ${generated}`)
  log.info('generated an admin password on first start')
}
