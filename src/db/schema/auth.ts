// Credentials: API tokens and browser session families with their rotating refresh tokens.
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'

export const apiTokens = sqliteTable('api_tokens', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  role: text('role', { enum: ['admin', 'guest'] }).notNull(),
  /** SHA-256 hex of the secret; the secret itself is never stored. */
  secretHash: text('secret_hash').notNull().unique(),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at'),
  lastUsedAt: integer('last_used_at'),
  lastUsedIp: text('last_used_ip'),
})

export const sessionFamilies = sqliteTable('session_families', {
  id: text('id').primaryKey(),
  createdAt: integer('created_at').notNull(),
  lastSeenAt: integer('last_seen_at').notNull(),
  ip: text('ip'),
  userAgent: text('user_agent'),
  revokedAt: integer('revoked_at'),
})

export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    familyId: text('family_id')
      .notNull()
      .references(() => sessionFamilies.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** Set when redeemed; a later redemption is reuse (outside the grace window). */
    rotatedAt: integer('rotated_at'),
  },
  (t) => [index('refresh_tokens_family').on(t.familyId)],
)
