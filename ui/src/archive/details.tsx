// The archive's facts as read-only text: tags, summary, file, pages, size, dates.
import { TagList, splitTags } from '../components/tags.tsx'
import type { ArchiveMeta } from '../types.ts'

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB']

export function formatSize(bytes: number | undefined): string {
  if (!bytes) return '—'
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${UNITS[unit]}`
}

/** Unix seconds as a local date; '—' when unknown. */
function formatDate(seconds: number | undefined): string {
  return seconds ? new Date(seconds * 1000).toLocaleString() : '—'
}

export function Details({ archive }: { archive: ArchiveMeta }) {
  const added = splitTags(archive.tags)
    .find((t) => t.startsWith('date_added:'))
    ?.slice('date_added:'.length)
  const file = archive.filename
    ? `${archive.filename}${archive.extension && !archive.filename.endsWith(`.${archive.extension}`) ? `.${archive.extension}` : ''}`
    : '—'
  return (
    <div class="stack">
      <TagList tags={archive.tags} />
      {archive.summary && <p class="archive-summary">{archive.summary}</p>}
      <dl class="archive-facts">
        <dt>File</dt>
        <dd class="archive-file">{file}</dd>
        <dt>Pages</dt>
        <dd>{archive.pagecount}</dd>
        <dt>Size</dt>
        <dd>{formatSize(archive.size)}</dd>
        <dt>Added</dt>
        <dd>{formatDate(Number(added) || undefined)}</dd>
        <dt>Last read</dt>
        <dd>
          {archive.lastreadtime
            ? `${formatDate(archive.lastreadtime)} (page ${archive.progress})`
            : 'Never'}
        </dd>
      </dl>
    </div>
  )
}
