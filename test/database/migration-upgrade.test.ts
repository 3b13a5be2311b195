// A library written by the first release (migration 0000 only) opened by today's code: the later
// migrations apply on top, and every row the first release could hold reads back unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MIGRATIONS_DIR } from '../../src/assets.ts'
import { openDb, type Db } from '../../src/db/client.ts'
import { findArchive, readArchivePages } from '../../src/db/repos/archives.repo.ts'
import {
  findApiToken,
  findRefreshToken,
  listLiveSessionFamilies,
} from '../../src/db/repos/auth.repo.ts'
import { listAllBookmarks } from '../../src/db/repos/bookmarks.repo.ts'
import { findCategory, listCategoryMembers } from '../../src/db/repos/categories.repo.ts'
import { findJob } from '../../src/db/repos/jobs.repo.ts'
import { findTankoubon, listTankMembers } from '../../src/db/repos/tankoubons.repo.ts'
import { openSettings } from '../../src/domain/settings.ts'

type Journal = { entries: { idx: number; tag: string }[] }

const root = mkdtempSync(join(tmpdir(), 'tankobun-upgrade-'))
const dbPath = join(root, 'db.sqlite')

/** A migrations folder holding only the first migration, as the first release shipped it. */
function firstMigrationOnly(): string {
  const folder = join(root, 'migrations-0000')
  mkdirSync(join(folder, 'meta'), { recursive: true })
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
  ) as Journal
  const first = journal.entries[0]!
  expect(first.tag).toStartWith('0000_')
  writeFileSync(
    join(folder, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: [first] }),
  )
  copyFileSync(join(MIGRATIONS_DIR, `${first.tag}.sql`), join(folder, `${first.tag}.sql`))
  return folder
}

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const TANK = 'TANK_1234567890'
const CATEGORY = 'SET_1234567890'
const DYNAMIC = 'SET_0987654321'

/** Rows of every table of migration 0000, written as the first release wrote them. */
const FIRST_RELEASE_ROWS = `
  INSERT INTO archives (id, path, filename, extension, title, tags, summary, isnew, progress,
    pagecount, lastreadtime, size, mtime_ms, toc, thumbhash, cover_page, has_patch, unreadable,
    unlinked, created_at)
  VALUES
    ('${A}', 'Series/Vol 1.cbz', 'Vol 1', 'cbz', 'Vol 1', 'artist:kim, series:saga, date_added:1700000000',
     'A summary', 0, 7, 12, 1700000500, 123456, 1699999999123, '{"1":"Start"}', 'hash1', 2, 1,
     NULL, 0, 1700000000),
    ('${B}', 'Loose.zip', 'Loose', 'zip', 'Loose', '', '', 1, 0, 3, 0, 999, 1700000001000, '{}',
     NULL, 1, 0, 'damaged header', 1, 1700000100);
  INSERT INTO archive_pages (archive_id, pages) VALUES
    ('${A}', '["001.jpg","002.jpg","003.jpg"]'), ('${B}', '["a.png","b.png","c.png"]');
  INSERT INTO tankoubons (id, name, summary, tags, progress, lastreadtime, thumbnail_page, created_at)
    VALUES ('${TANK}', 'The Saga', 'Collected', 'series:saga', 4, 1700000600, 2, 1700000200);
  INSERT INTO tankoubon_members (tankoubon_id, archive_id, position) VALUES
    ('${TANK}', '${B}', 0), ('${TANK}', '${A}', 1);
  INSERT INTO categories (id, name, search, pinned, visible_to_guest, created_at) VALUES
    ('${CATEGORY}', 'Favourites', '', 1, 1, 1700000300),
    ('${DYNAMIC}', 'By Kim', 'artist:kim', 0, 0, 1700000301);
  INSERT INTO category_members (category_id, member_id, position) VALUES
    ('${CATEGORY}', '${A}', 0), ('${CATEGORY}', '${TANK}', 1);
  INSERT INTO bookmarks (archive_id, page, name, bookmarked_at) VALUES
    ('${A}', 3, 'The fight', 1700000700), ('${A}', 9, NULL, 1700000800);
  INSERT INTO settings (key, value) VALUES
    ('archives_per_page', '50'), ('name', '"My shelf"'), ('internal.total_pages_read', '42');
  INSERT INTO jobs (id, name, state, progress, args, result, result_truncated, error, notes,
    unique_key, priority, created_at, started_at, finished_at, downloaded_bytes, total_bytes,
    rate_limit_bytes_per_sec, rate_limit_matched_pattern)
  VALUES
    (5, 'regen_thumbs', 'finished', 1, '{"force":true}', '{"done":2}', 0, NULL, '{"a":"b"}',
     'regen_thumbs', 0, 1700000900, 1700000901, 1700000902, NULL, NULL, NULL, NULL),
    (6, 'download_url', 'failed', 0.5, '{"url":"https://example.com/x"}', NULL, 1, 'gone', '{}',
     NULL, 2, 1700001000, 1700001001, 1700001002, 100, 200, 5000, '*.example.com');
  INSERT INTO session_families (id, created_at, last_seen_at, ip, user_agent, revoked_at) VALUES
    ('fam1', 1700001100, 1700001200, '10.0.0.2', 'Reader/1.0', NULL);
  INSERT INTO refresh_tokens (id, family_id, secret_hash, created_at, expires_at, rotated_at) VALUES
    ('rt1', 'fam1', 'hash-rt1', 1700001100, 1800000000, NULL);
  INSERT INTO api_tokens (id, name, role, secret_hash, created_at, expires_at, last_used_at,
    last_used_ip) VALUES
    ('tok1', 'Phone', 'guest', 'hash-tok1', 1700001300, NULL, 1700001400, '10.0.0.3');
`

let db: Db

beforeAll(() => {
  const first = new Database(dbPath, { create: true, strict: true })
  migrate(drizzle({ client: first }), { migrationsFolder: firstMigrationOnly() })
  first.exec('PRAGMA foreign_keys = ON')
  first.exec(FIRST_RELEASE_ROWS)
  first.close()
  db = openDb(dbPath)
})

afterAll(() => {
  db.$client.close()
  rmSync(root, { recursive: true, force: true })
})

describe('a database from migration 0000 opened by today', () => {
  it('applies every later migration on top', () => {
    const journal = JSON.parse(
      readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
    ) as Journal
    const applied = db.$client.query('SELECT COUNT(*) AS n FROM __drizzle_migrations').get() as {
      n: number
    }
    expect(applied.n).toBe(journal.entries.length)
    // Tables of later migrations are there and empty.
    for (const table of ['plugins', 'download_queue', 'import_snapshots', 'duplicate_groups'])
      expect(db.$client.query(`SELECT COUNT(*) AS n FROM ${table}`).get()).toEqual({ n: 0 })
  })

  it('reads archives back with tags, progress, flags and page lists intact', () => {
    expect(findArchive(db, A)).toEqual({
      id: A,
      path: 'Series/Vol 1.cbz',
      filename: 'Vol 1',
      extension: 'cbz',
      title: 'Vol 1',
      tags: 'artist:kim, series:saga, date_added:1700000000',
      summary: 'A summary',
      isnew: false,
      progress: 7,
      pagecount: 12,
      lastreadtime: 1700000500,
      size: 123456,
      mtimeMs: 1699999999123,
      toc: '{"1":"Start"}',
      thumbhash: 'hash1',
      coverPage: 2,
      hasPatch: true,
      unreadable: null,
      unlinked: false,
      createdAt: 1700000000,
    })
    expect(findArchive(db, B)).toMatchObject({
      isnew: true,
      progress: 0,
      unreadable: 'damaged header',
      unlinked: true,
      thumbhash: null,
    })
    expect(readArchivePages(db, A)).toEqual(['001.jpg', '002.jpg', '003.jpg'])
    expect(readArchivePages(db, B)).toEqual(['a.png', 'b.png', 'c.png'])
  })

  it('reads Tankoubons and categories back with their members in order', () => {
    expect(findTankoubon(db, TANK)).toEqual({
      id: TANK,
      name: 'The Saga',
      summary: 'Collected',
      tags: 'series:saga',
      progress: 4,
      lastreadtime: 1700000600,
      thumbnailPage: 2,
      createdAt: 1700000200,
    })
    expect(listTankMembers(db, TANK)).toEqual([B, A])
    expect(findCategory(db, CATEGORY)).toEqual({
      id: CATEGORY,
      name: 'Favourites',
      search: '',
      pinned: true,
      visibleToGuest: true,
      createdAt: 1700000300,
    })
    expect(findCategory(db, DYNAMIC)).toMatchObject({ search: 'artist:kim', pinned: false })
    expect(listCategoryMembers(db, CATEGORY)).toEqual([A, TANK])
  })

  it('reads bookmarks, settings, jobs, sessions and API tokens back', () => {
    expect(listAllBookmarks(db)).toEqual([
      { archiveId: A, page: 3, name: 'The fight', bookmarkedAt: 1700000700 },
      { archiveId: A, page: 9, name: null, bookmarkedAt: 1700000800 },
    ])
    const settings = openSettings(db)
    expect(settings.get('archives_per_page')).toBe(50)
    expect(settings.get('name')).toBe('My shelf')
    expect(settings.getInternal('total_pages_read')).toBe(42)
    expect(findJob(db, 5)).toEqual({
      id: 5,
      name: 'regen_thumbs',
      kind: null,
      state: 'finished',
      progress: 1,
      args: '{"force":true}',
      result: '{"done":2}',
      resultTruncated: false,
      error: null,
      notes: '{"a":"b"}',
      uniqueKey: 'regen_thumbs',
      priority: 0,
      createdAt: 1700000900,
      startedAt: 1700000901,
      finishedAt: 1700000902,
      downloadedBytes: null,
      totalBytes: null,
      rateLimitBytesPerSec: null,
      rateLimitMatchedPattern: null,
    })
    expect(findJob(db, 6)).toMatchObject({
      state: 'failed',
      progress: 0.5,
      resultTruncated: true,
      error: 'gone',
      priority: 2,
      downloadedBytes: 100,
      totalBytes: 200,
      rateLimitBytesPerSec: 5000,
      rateLimitMatchedPattern: '*.example.com',
    })
    // The session's refresh token runs to 1800000000 (2027): live at 1700002000.
    expect(listLiveSessionFamilies(db, 1700002000)).toEqual([
      {
        id: 'fam1',
        createdAt: 1700001100,
        lastSeenAt: 1700001200,
        ip: '10.0.0.2',
        userAgent: 'Reader/1.0',
        revokedAt: null,
      },
    ])
    expect(findRefreshToken(db, 'rt1')).toEqual({
      id: 'rt1',
      familyId: 'fam1',
      secretHash: 'hash-rt1',
      createdAt: 1700001100,
      expiresAt: 1800000000,
      rotatedAt: null,
    })
    expect(findApiToken(db, 'tok1')).toEqual({
      id: 'tok1',
      name: 'Phone',
      role: 'guest',
      secretHash: 'hash-tok1',
      createdAt: 1700001300,
      expiresAt: null,
      lastUsedAt: 1700001400,
      lastUsedIp: '10.0.0.3',
    })
  })
})
