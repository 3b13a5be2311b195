// How much metadata one archive may hold: the caps of a metadata edit through the API (PUT
// /api/archives/{id}/metadata) and of a metadata plugin's answer and what it writes, so neither
// can make every search answer listing the archive megabytes long (one plugin run wrote 9.8 MB,
// 200,002 tags). Generous next to real galleries (a few hundred tags, titles of a few hundred
// characters).

/** Tags of one archive, after repeats are dropped. */
export const MAX_ARCHIVE_TAGS = 5_000
/** UTF-8 bytes of one archive's tag string as stored (`a, b, c`). */
export const MAX_ARCHIVE_TAG_BYTES = 256 * 1024
/** Characters (UTF-16 units) of a title. */
export const MAX_TITLE_CHARS = 2_000
/** Characters (UTF-16 units) of a summary. */
export const MAX_SUMMARY_CHARS = 64 * 1024

const count = (n: number) => n.toLocaleString('en-US')

/** Null when the tags fit an archive, else the reason. `tags` are split and deduplicated. */
export function tagsOverCap(tags: readonly string[]): string | null {
  if (tags.length > MAX_ARCHIVE_TAGS)
    return `${count(tags.length)} tags; an archive holds at most ${count(MAX_ARCHIVE_TAGS)}`
  // Joined with ", ": each tag's bytes plus two per separator.
  let bytes = Math.max(0, tags.length - 1) * 2
  for (const tag of tags) bytes += Buffer.byteLength(tag)
  if (bytes > MAX_ARCHIVE_TAG_BYTES)
    return `${count(bytes)} bytes of tags; an archive holds at most ${count(MAX_ARCHIVE_TAG_BYTES)}`
  return null
}

/** Null when the title and summary (either may be absent) fit, else the reason. */
export function textOverCap(fields: { title?: string; summary?: string }): string | null {
  if (fields.title !== undefined && fields.title.length > MAX_TITLE_CHARS)
    return `a title of ${count(fields.title.length)} characters; at most ${count(MAX_TITLE_CHARS)}`
  if (fields.summary !== undefined && fields.summary.length > MAX_SUMMARY_CHARS)
    return `a summary of ${count(fields.summary.length)} characters; at most ${count(MAX_SUMMARY_CHARS)}`
  return null
}

/**
 * Null unless a raw tag string is far past the byte cap, refused before it is split: splitting
 * 10 MB into 200,000 tags costs more than saying no.
 */
export function rawTagsOverCap(raw: string): string | null {
  if (raw.length <= 4 * MAX_ARCHIVE_TAG_BYTES) return null
  return `${count(raw.length)} characters of tags; an archive holds at most ${count(MAX_ARCHIVE_TAG_BYTES)} bytes`
}
