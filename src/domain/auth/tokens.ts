// API tokens: `tkb_` + 64 hex secrets, stored as SHA-256, looked up by hash.
import { eq } from 'drizzle-orm'
import type { Deps } from '../../deps.ts'
import { apiTokens } from '../../db/schema/auth.ts'

export const TOKEN_PREFIX = 'tkb_'

export function hashSecret(secret: string): string {
  return new Bun.CryptoHasher('sha256').update(secret).digest('hex')
}

/** Accepts the raw secret or its base64 (LANraragi clients base64 the key). */
export function normalizeBearer(value: string): string | null {
  if (value.startsWith(TOKEN_PREFIX)) return value
  try {
    const decoded = Buffer.from(value, 'base64').toString('utf8')
    return decoded.startsWith(TOKEN_PREFIX) ? decoded : null
  } catch {
    return null
  }
}

export function findTokenBySecret(
  deps: Pick<Deps, 'db'>,
  bearer: string,
  _ip: string | null,
): { id: string; role: 'admin' | 'guest' } | null {
  const secret = normalizeBearer(bearer)
  if (!secret) return null
  const row = deps.db
    .select({ id: apiTokens.id, role: apiTokens.role, expiresAt: apiTokens.expiresAt })
    .from(apiTokens)
    .where(eq(apiTokens.secretHash, hashSecret(secret)))
    .get()
  if (!row) return null
  if (row.expiresAt !== null && row.expiresAt <= Math.floor(Date.now() / 1000)) return null
  return { id: row.id, role: row.role }
}
