// Archive text as LANraragi stores it: Unicode NFC (its redis_encode), so a title typed with
// decomposed accents is the same title as one typed composed; an edited title also loses its
// line breaks (its trim_CRLF) and outer spaces. Tags get the same through model/tags.ts.
import { MAX_TITLE_CHARS } from '../../model/metadata-limits.ts'
import { LINE_BREAKS } from '../../model/tags.ts'

/** Longest title the API takes (and a restore), in UTF-16 units: a title is a line of a list. */
export const MAX_TITLE_LENGTH = MAX_TITLE_CHARS
/**
 * Longest tags or summary a restore takes, in UTF-16 units: about what one API write can carry
 * (its body is capped at 1 MiB).
 */
export const MAX_METADATA_TEXT_LENGTH = 1024 * 1024

/** A title or summary as stored. */
export const storedText = (text: string): string => text.normalize('NFC')

/** A title sent to PUT metadata, as stored: may come out empty (the caller refuses that). */
export const editedTitle = (title: string): string =>
  storedText(title).replace(LINE_BREAKS, '').trim()
