// Password login and password changes: verify the admin password (throttled per address), open a
// session family; a new password ends every other session.
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { passwordEnabled, setAdminPassword, verifyAdminPassword } from './password.ts'
import {
  openSession,
  revokeOtherSessions,
  type SessionGrant,
  type SessionMeta,
} from './sessions.ts'

const log = createLogger('auth')

/** With protection disabled any password opens a session (the server is open anyway). */
export async function login(
  deps: Pick<Deps, 'db' | 'settings' | 'auth'>,
  password: string,
  meta: SessionMeta,
): Promise<SessionGrant> {
  if (passwordEnabled(deps.settings)) {
    const throttle = deps.auth.loginThrottle
    const lockedMs = throttle.begin(meta.ip)
    if (lockedMs > 0) {
      log.warn('login refused: too many failures', { ip: meta.ip })
      const minutes = Math.ceil(lockedMs / 60_000)
      const locked = fail.too_many_requests(
        `Too many failed logins; try again in ${minutes} minute(s).`,
      )
      locked.retryAfterSecs = lockedMs / 1000
      throw locked
    }
    const correct = await verifyAdminPassword(deps.settings, password)
    if (!correct) {
      log.warn('login failed: wrong password', { ip: meta.ip })
      throw fail.unauthorized('Wrong password.')
    }
    throttle.succeed(meta.ip)
  }
  const grant = await openSession(deps, meta)
  log.info('login', { ip: meta.ip, familyId: grant.familyId })
  return grant
}

/**
 * Sets a new admin password ('' disables protection). Every other session family is revoked: a
 * password change is how an owner evicts whoever else knew the old one. API tokens stay valid.
 * When the caller had no family (protection was off) a fresh session is opened for it, so the
 * browser that enabled protection is not locked out.
 */
export async function changeAdminPassword(
  deps: Pick<Deps, 'db' | 'settings' | 'auth'>,
  password: string,
  caller: { familyId: string | null },
  meta: SessionMeta,
): Promise<SessionGrant | null> {
  await setAdminPassword(deps.settings, password)
  const revoked = revokeOtherSessions(deps, caller.familyId)
  log.info(password === '' ? 'password protection disabled' : 'admin password changed', {
    revokedSessions: revoked,
  })
  if (password === '' || caller.familyId !== null) return null
  return openSession(deps, meta)
}
