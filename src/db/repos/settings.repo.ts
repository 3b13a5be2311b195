// Key/value rows of the settings table; values are JSON.
import { eq } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { settings } from '../schema/settings.ts'

export function readAllSettings(db: Db): Map<string, unknown> {
  const out = new Map<string, unknown>()
  for (const row of db.select().from(settings).all()) out.set(row.key, JSON.parse(row.value))
  return out
}

export function writeSetting(db: Db, key: string, value: unknown): void {
  const json = JSON.stringify(value)
  db.insert(settings)
    .values({ key, value: json })
    .onConflictDoUpdate({ target: settings.key, set: { value: json } })
    .run()
}

export function deleteSetting(db: Db, key: string): void {
  db.delete(settings).where(eq(settings.key, key)).run()
}
