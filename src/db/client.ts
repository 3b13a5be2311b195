// Opens the SQLite file (WAL), applies committed migrations, and offers tx() for atomic writes.
import { Database } from 'bun:sqlite'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { MIGRATIONS_DIR } from '../assets.ts'
import * as schema from './schema/index.ts'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }

export function openDb(path: string): Db {
  const sqlite = new Database(path, { create: true, strict: true })
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA synchronous = NORMAL')
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA busy_timeout = 5000')
  const db = drizzle({ client: sqlite, schema }) as Db
  migrate(db, { migrationsFolder: MIGRATIONS_DIR })
  return db
}

/**
 * The database of a server that may be running, for reading only (the plugin CLI's `--archive
 * <id>`): no migrations, no writes, WAL readers beside the server's writer.
 */
export function openDbReadOnly(path: string): Db {
  const sqlite = new Database(path, { readonly: true, strict: true })
  sqlite.exec('PRAGMA busy_timeout = 5000')
  return drizzle({ client: sqlite, schema }) as Db
}

/** Runs fn in one immediate transaction (synchronous: bun:sqlite is). */
export function tx<T>(db: Db, fn: () => T): T {
  return db.$client.transaction(fn).immediate()
}
