// API tokens: `tkb_` + 64 hex secrets shown once, stored as SHA-256, roles admin and guest.
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import {
  deleteApiToken as deleteRow,
  findApiTokenByHash,
  insertApiToken,
  listApiTokens as listRows,
  renameApiToken as renameRow,
  touchApiToken,
  type ApiTokenRow,
} from '../../db/repos/auth.repo.ts'
import { randomHex, safeEqual, sha256Hex } from './secrets.ts'

const log = createLogger('auth')

export const TOKEN_PREFIX = 'tkb_'
const TOKEN_PATTERN = /^tkb_[0-9a-f]{64}$/
/** last_used_at/ip are written at most this often per token: a write per request would queue. */
export const TOKEN_TOUCH_INTERVAL_SECS = 60
export const MAX_TOKEN_NAME_LENGTH = 100

export type TokenRole = 'admin' | 'guest'
export type ApiToken = Omit<ApiTokenRow, 'secretHash'>

const nowSecs = () => Math.floor(Date.now() / 1000)

function publicToken({ secretHash: _hidden, ...token }: ApiTokenRow): ApiToken {
  return token
}

function cleanName(name: string): string {
  const trimmed = name.trim()
  if (trimmed === '') throw fail.bad_request('Token name must not be empty.')
  if (trimmed.length > MAX_TOKEN_NAME_LENGTH) {
    throw fail.bad_request(`Token name is longer than ${MAX_TOKEN_NAME_LENGTH} characters.`)
  }
  return trimmed
}

/** Creates a token; the returned secret is the only copy and is never stored or logged. */
export function createApiToken(
  deps: Pick<Deps, 'db'>,
  input: { name: string; role: TokenRole; expiresInSecs?: number },
): { token: ApiToken; secret: string } {
  const secret = TOKEN_PREFIX + randomHex(32)
  const createdAt = nowSecs()
  const row: ApiTokenRow = {
    id: crypto.randomUUID(),
    name: cleanName(input.name),
    role: input.role,
    secretHash: sha256Hex(secret),
    createdAt,
    expiresAt: input.expiresInSecs === undefined ? null : createdAt + input.expiresInSecs,
    lastUsedAt: null,
    lastUsedIp: null,
  }
  insertApiToken(deps.db, row)
  log.info('api token created', { id: row.id, name: row.name, role: row.role })
  return { token: publicToken(row), secret }
}

export function listApiTokens(deps: Pick<Deps, 'db'>): ApiToken[] {
  return listRows(deps.db).map(publicToken)
}

export function renameApiToken(deps: Pick<Deps, 'db'>, id: string, name: string): ApiToken {
  const row = renameRow(deps.db, id, cleanName(name))
  if (!row) throw fail.not_found(`No token with id ${id.slice(0, 64)}.`)
  return publicToken(row)
}

export function deleteApiToken(deps: Pick<Deps, 'db'>, id: string): void {
  if (!deleteRow(deps.db, id)) throw fail.not_found(`No token with id ${id.slice(0, 64)}.`)
  log.info('api token deleted', { id })
}

/**
 * The token secret carried by an Authorization value: `Bearer <token>`, or `Bearer <base64 of the
 * token>` as LANraragi clients send their key. Null for anything else.
 */
export function parseBearer(authorization: string): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  if (!match) return null
  const value = match[1]!
  if (TOKEN_PATTERN.test(value)) return value
  const decoded = Buffer.from(value, 'base64').toString('utf8').trim()
  return TOKEN_PATTERN.test(decoded) ? decoded : null
}

/**
 * The live token a secret belongs to (unknown, deleted and expired tokens give null). Records its
 * use, throttled to one write per TOKEN_TOUCH_INTERVAL_SECS.
 */
export function authenticateApiToken(
  deps: Pick<Deps, 'db'>,
  secret: string,
  ip: string | null,
): { id: string; role: TokenRole } | null {
  const hash = sha256Hex(secret)
  const row = findApiTokenByHash(deps.db, hash)
  // The index lookup finds the row; the decision itself is a constant-time comparison.
  if (!row || !safeEqual(row.secretHash, hash)) return null
  const now = nowSecs()
  if (row.expiresAt !== null && row.expiresAt <= now) return null
  if (row.lastUsedAt === null || now - row.lastUsedAt >= TOKEN_TOUCH_INTERVAL_SECS) {
    touchApiToken(deps.db, row.id, now, ip)
  }
  return { id: row.id, role: row.role }
}
