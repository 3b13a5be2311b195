// Wire schemas and shapes of the auth area: login, tokens (ApiToken), sessions, settings.
import { t } from 'elysia'
import type { ApiToken } from '../../domain/auth/tokens.ts'
import type { SessionInfo } from '../../domain/auth/sessions.ts'
import { MAX_TOKEN_NAME_LENGTH } from '../../domain/auth/tokens.ts'

/** Long enough for any passphrase, short enough that hashing it is not a denial of service. */
const MAX_PASSWORD_LENGTH = 1024
const TEN_YEARS_SECS = 10 * 365 * 24 * 60 * 60

export const AuthModel = {
  login: t.Object({ password: t.String({ maxLength: MAX_PASSWORD_LENGTH }) }),
  setPassword: t.Object({ password: t.String({ maxLength: MAX_PASSWORD_LENGTH }) }),
  createToken: t.Object({
    name: t.String({ minLength: 1, maxLength: MAX_TOKEN_NAME_LENGTH }),
    role: t.Union([t.Literal('admin'), t.Literal('guest')]),
    expires_in_secs: t.Optional(t.Integer({ minimum: 1, maximum: TEN_YEARS_SECS })),
  }),
  renameToken: t.Object({ name: t.String({ minLength: 1, maxLength: MAX_TOKEN_NAME_LENGTH }) }),
  tokenParams: t.Object({ id: t.String({ maxLength: 64 }) }),
  sessionParams: t.Object({ family_id: t.String({ maxLength: 64 }) }),
  /** Keys and values are checked by the settings store (unknown keys are a 400). */
  settingsPatch: t.Record(t.String(), t.Unknown()),
}

/** ApiToken: optional fields are absent, not null; the secret and its hash never appear. */
export function toWireToken(token: ApiToken) {
  const out: Record<string, unknown> = {
    id: token.id,
    name: token.name,
    role: token.role,
    created_at: token.createdAt,
  }
  if (token.expiresAt !== null) out.expires_at = token.expiresAt
  if (token.lastUsedAt !== null) out.last_used_at = token.lastUsedAt
  if (token.lastUsedIp !== null) out.last_used_ip = token.lastUsedIp
  return out
}

export function toWireSession(session: SessionInfo, currentFamilyId: string | null) {
  return {
    family_id: session.familyId,
    created_at: session.createdAt,
    last_seen_at: session.lastSeenAt,
    ip: session.ip,
    user_agent: session.userAgent,
    current: session.familyId === currentFamilyId,
  }
}
