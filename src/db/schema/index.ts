// All tables, for drizzle's typed client and drizzle-kit.
export * from './archives.ts'
export * from './jobs.ts'
export * from './settings.ts'
export * from './auth.ts'
export * from './collections.ts'
export * from './plugins.ts'
export * from './downloads.ts'
export * from './snapshots.ts'
