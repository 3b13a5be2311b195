// Queries of the plugins table: registration upserts, listings by priority, settings writes.
import { and, asc, eq, notInArray } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { plugins } from '../schema/plugins.ts'

export type PluginRow = typeof plugins.$inferSelect

/** What registration knows of a file; the user's settings (priority, args, options) are kept. */
export type PluginRegistration = Pick<
  PluginRow,
  'namespace' | 'type' | 'origin' | 'source' | 'sha256' | 'info'
>

export function upsertPluginRegistration(db: Db, row: PluginRegistration): void {
  const { namespace: _, ...found } = row
  db.insert(plugins).values(row).onConflictDoUpdate({ target: plugins.namespace, set: found }).run()
}

export function findPlugin(db: Db, namespace: string): PluginRow | undefined {
  return db.select().from(plugins).where(eq(plugins.namespace, namespace)).get()
}

/** All plugins, or those of one type, by priority then namespace. */
export function listPluginRows(db: Db, type?: string): PluginRow[] {
  const query = db.select().from(plugins)
  const filtered = type === undefined ? query : query.where(eq(plugins.type, type))
  return filtered.orderBy(asc(plugins.priority), asc(plugins.namespace)).all()
}

/**
 * Namespaces of the enabled (Run Automatically) plugins of a type, by priority then namespace:
 * asked at every new archive, so it reads two columns, never the manifests.
 */
export function listEnabledPluginNamespaces(db: Db, type: string): string[] {
  return db
    .select({ namespace: plugins.namespace })
    .from(plugins)
    .where(and(eq(plugins.type, type), eq(plugins.enabled, true)))
    .orderBy(asc(plugins.priority), asc(plugins.namespace))
    .all()
    .map((row) => row.namespace)
}

export function updatePluginRow(
  db: Db,
  namespace: string,
  patch: Partial<Pick<PluginRow, 'priority' | 'customargs' | 'enabled' | 'options'>>,
): void {
  if (Object.keys(patch).length === 0) return
  db.update(plugins).set(patch).where(eq(plugins.namespace, namespace)).run()
}

/** Rows of plugins whose file is gone; answers the namespaces removed. */
export function deletePluginsOtherThan(db: Db, kept: string[]): string[] {
  return db
    .delete(plugins)
    .where(notInArray(plugins.namespace, kept))
    .returning({ namespace: plugins.namespace })
    .all()
    .map((r) => r.namespace)
}
