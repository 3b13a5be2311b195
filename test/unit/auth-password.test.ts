// The admin password at start: generated and printed once by a start that serves, replaced by TANKOBUN_PASSWORD, hashed.
import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb } from '../../src/db/client.ts'
import { openSettings, type SettingsStore } from '../../src/domain/settings.ts'
import {
  announcePendingPassword,
  ensureAdminPassword,
  passwordEnabled,
  verifyAdminPassword,
} from '../../src/domain/auth/password.ts'

const opened: { dir: string; close(): void }[] = []

function freshSettings(): SettingsStore {
  const dir = mkdtempSync(join(tmpdir(), 'tankobun-pw-'))
  const db = openDb(join(dir, 'db.sqlite'))
  opened.push({ dir, close: () => db.$client.close() })
  return openSettings(db)
}

afterEach(() => {
  for (const { dir, close } of opened.splice(0)) {
    close()
    rmSync(dir, { recursive: true, force: true })
  }
})

describe('ensureAdminPassword', () => {
  it('generates one on first start, shows it once when served, stores only an argon2id hash', async () => {
    const settings = freshSettings()
    const printed: string[] = []
    await ensureAdminPassword(settings, undefined)
    announcePendingPassword(settings, (line) => printed.push(line))
    expect(printed).toHaveLength(1)
    const generated = printed[0]!.split(': ').at(-1)!
    expect(generated.length).toBeGreaterThanOrEqual(20)
    expect(passwordEnabled(settings)).toBe(true)
    const hash = settings.getInternal<string>('password_hash')!
    expect(hash.startsWith('$argon2id$')).toBe(true)
    expect(hash).not.toContain(generated)
    expect(await verifyAdminPassword(settings, generated)).toBe(true)

    await ensureAdminPassword(settings, undefined)
    announcePendingPassword(settings, (line) => printed.push(line))
    expect(printed).toHaveLength(1)
    expect(await verifyAdminPassword(settings, generated)).toBe(true)
  })

  it('keeps a generated password for the next start when the first never served', async () => {
    const settings = freshSettings()
    const printed: string[] = []
    // The first start generates it and fails before listening: nothing announced.
    await ensureAdminPassword(settings, undefined)
    // The next start serves and shows it.
    await ensureAdminPassword(settings, undefined)
    announcePendingPassword(settings, (line) => printed.push(line))
    expect(printed).toHaveLength(1)
    expect(await verifyAdminPassword(settings, printed[0]!.split(': ').at(-1)!)).toBe(true)
  })

  it('forgets a pending generated password once a password is configured', async () => {
    const settings = freshSettings()
    const printed: string[] = []
    await ensureAdminPassword(settings, undefined)
    await ensureAdminPassword(settings, 'configured-pw')
    announcePendingPassword(settings, (line) => printed.push(line))
    expect(printed).toEqual([])
  })

  it('replaces the stored one with the configured one; empty disables protection', async () => {
    const settings = freshSettings()
    const printed: string[] = []
    await ensureAdminPassword(settings, 'configured-pw')
    expect(printed).toEqual([])
    expect(await verifyAdminPassword(settings, 'configured-pw')).toBe(true)
    expect(await verifyAdminPassword(settings, 'other')).toBe(false)
    await ensureAdminPassword(settings, '')
    expect(passwordEnabled(settings)).toBe(false)
    expect(await verifyAdminPassword(settings, '')).toBe(false)
  })
})
