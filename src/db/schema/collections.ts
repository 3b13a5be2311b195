// Categories, Tankoubons and bookmarks. Member ids carry no foreign key: vanished members are
// omitted at read time, as the spec asks, instead of being cascaded away.
import { sqliteTable, text, integer, primaryKey, index } from 'drizzle-orm/sqlite-core'

export const categories = sqliteTable('categories', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  search: text('search').notNull().default(''),
  pinned: integer('pinned', { mode: 'boolean' }).notNull().default(false),
  visibleToGuest: integer('visible_to_guest', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at').notNull(),
})

export const categoryMembers = sqliteTable(
  'category_members',
  {
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    memberId: text('member_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.categoryId, t.memberId] }),
    index('category_members_member').on(t.memberId),
  ],
)

export const tankoubons = sqliteTable('tankoubons', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  summary: text('summary').notNull().default(''),
  tags: text('tags').notNull().default(''),
  progress: integer('progress').notNull().default(0),
  lastreadtime: integer('lastreadtime').notNull().default(0),
  /** Global page the thumbnail was taken from; null = page 1 of the first member. */
  thumbnailPage: integer('thumbnail_page'),
  createdAt: integer('created_at').notNull(),
})

export const tankoubonMembers = sqliteTable(
  'tankoubon_members',
  {
    tankoubonId: text('tankoubon_id')
      .notNull()
      .references(() => tankoubons.id, { onDelete: 'cascade' }),
    archiveId: text('archive_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tankoubonId, t.archiveId] }),
    index('tankoubon_members_archive').on(t.archiveId),
  ],
)

export const bookmarks = sqliteTable(
  'bookmarks',
  {
    archiveId: text('archive_id').notNull(),
    page: integer('page').notNull(),
    name: text('name'),
    bookmarkedAt: integer('bookmarked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.archiveId, t.page] })],
)
