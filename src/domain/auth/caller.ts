// Who is calling, as resolved from cookies or the Authorization header, and what they may do.
import type { Settings } from '../settings.ts'
import { fail } from '../../errors.ts'

/**
 * Access levels of the policy table (src/http/policy.ts).
 * open: no credentials. any: the spec's dash (credentials when nofun_mode is on, guest scope).
 * admin: session or admin token. session: browser session only.
 * progress: the spec's admin (a guest token is refused: it is read-only), except that anonymous
 * callers may track progress while nofun_mode, guest_mode and authenticated_progress are all off
 * (LANraragi's authprogress rule, docs/auth.md).
 */
export type Access = 'open' | 'admin' | 'session' | 'any' | 'progress'

export type Caller =
  | { kind: 'anonymous' }
  /** A browser session (or any caller while password protection is disabled). */
  | { kind: 'session'; familyId: string | null }
  | { kind: 'token'; tokenId: string; role: 'admin' | 'guest' }

export const ANONYMOUS: Caller = { kind: 'anonymous' }

/** LANraragi's own refusal texts, so a LANraragi client shows the message it knows. */
const NEEDS_CREDENTIALS = 'This API is protected and requires login or an API Key.'
const PROGRESS_NEEDS_CREDENTIALS = 'This operation requires authentication.'

export const isAdmin = (c: Caller): boolean =>
  c.kind === 'session' || (c.kind === 'token' && c.role === 'admin')

/**
 * Throws 401 (no credentials) or 403 (wrong kind of credentials) when the caller may not use a
 * route of this access level. Returns whether the caller is limited to the guest-visitor scope.
 * `guestScope`: the route applies that scope (policy table), so guest-mode visitors may use it.
 */
export function checkAccess(
  access: Access,
  caller: Caller,
  settings: Pick<Settings, 'nofun_mode' | 'guest_mode' | 'authenticated_progress'>,
  guestScope = false,
): { guestScoped: boolean } {
  const open = { guestScoped: false }
  switch (access) {
    case 'open':
      return open
    case 'session':
      if (caller.kind === 'session') return open
      if (caller.kind === 'token') throw fail.forbidden('This endpoint needs a browser session.')
      throw fail.unauthorized('This endpoint needs a logged-in session.')
    case 'admin':
      if (isAdmin(caller)) return open
      if (caller.kind === 'token') throw fail.forbidden('This token is read-only.')
      throw fail.unauthorized(NEEDS_CREDENTIALS)
    case 'progress':
      if (isAdmin(caller)) return open
      if (caller.kind === 'token') throw fail.forbidden('This token is read-only.')
      if (!settings.authenticated_progress && !settings.nofun_mode && !settings.guest_mode) {
        return open
      }
      throw fail.unauthorized(PROGRESS_NEEDS_CREDENTIALS)
    case 'any':
      return anyAccess(caller, settings, guestScope)
  }
}

function anyAccess(
  caller: Caller,
  settings: Pick<Settings, 'nofun_mode' | 'guest_mode'>,
  guestScope: boolean,
): { guestScoped: boolean } {
  if (caller.kind !== 'anonymous') return { guestScoped: false }
  if (settings.guest_mode) {
    // Guest mode limits anonymous callers to the scope, so a route that cannot apply it (job
    // lists, and any route nobody marked) stays closed to them, whatever nofun_mode says.
    if (guestScope) return { guestScoped: true }
    throw fail.unauthorized(NEEDS_CREDENTIALS)
  }
  if (!settings.nofun_mode) return { guestScoped: false }
  throw fail.unauthorized(NEEDS_CREDENTIALS)
}
