// One archive as an OPDS entry: inside an acquisition feed, or alone as an Atom Entry Document
// (GET /api/opds/{id}, LANraragi's single-entry read). Shared pieces of every OPDS document too:
// the namespaces of the root element, links, dates.
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { archiveMimeType } from '../../model/formats.ts'
import { splitTags, tagNamespace } from '../../model/tags.ts'
import { OPDS_IMAGE_TYPE } from './images.ts'
import { element } from './xml.ts'

export const PSE_STREAM_REL = 'http://vaemendis.net/opds-pse/stream'
export const ENTRY_TYPE = 'application/atom+xml;type=entry;profile=opds-catalog'
export const NAVIGATION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=navigation'

const NAMESPACES = {
  xmlns: 'http://www.w3.org/2005/Atom',
  'xmlns:opds': 'http://opds-spec.org/2010/catalog',
  'xmlns:opensearch': 'http://a9.com/-/spec/opensearch/1.1/',
  'xmlns:pse': 'http://vaemendis.net/opds-pse/ns',
  'xmlns:dcterms': 'http://purl.org/dc/terms/',
}

/** The opening tag of a document's root element, with every namespace the catalog uses. */
export function openTag(name: 'feed' | 'entry'): string {
  let open = `<${name}`
  for (const [key, value] of Object.entries(NAMESPACES)) open += ` ${key}="${value}"`
  return `${open}>`
}

export const iso = (seconds: number) => new Date(Math.max(0, seconds) * 1000).toISOString()

// OPDS readers tell comics by the comic-book types (LANraragi sends x-cbz and x-cbr: "application/zip
// is universally hated by all readers"); compressed tars keep their own type.
const READER_TYPES: Readonly<Record<string, string>> = {
  zip: 'application/x-cbz',
  cbz: 'application/x-cbz',
  rar: 'application/x-cbr',
  cbr: 'application/x-cbr',
  '7z': 'application/x-cb7',
  cb7: 'application/x-cb7',
  tar: 'application/x-cbt',
  cbt: 'application/x-cbt',
}

/** The type the catalog's download route sends an archive of this extension as (and announces). */
export const readerMimeType = (extension: string) =>
  Object.hasOwn(READER_TYPES, extension) ? READER_TYPES[extension]! : archiveMimeType(extension)

/** The extension of what is downloaded: an archive with a patch goes out as a CBZ of its pages. */
export const downloadExtension = (row: ArchiveRow) => (row.hasPatch ? 'cbz' : row.extension)

/** The value of the first tag in a namespace, as LANraragi fills an entry's Dublin Core fields. */
const firstValue = (tags: string[], namespace: string) => {
  const tag = tags.find((t) => tagNamespace(t) === namespace)
  return tag === undefined ? undefined : tag.slice(tag.indexOf(':') + 1).trim()
}

export const link = (rel: string, href: string, type: string, title?: string) =>
  element('link', { rel, href, type, title })

export const updatedOf = (row: ArchiveRow) =>
  Math.max(row.createdAt, Math.floor(row.mtimeMs / 1000), row.lastreadtime)

/** Namespaces whose tags are not listed as an entry's categories (folded to lower case). */
export const excludedNamespaces = (deps: Pick<Deps, 'settings'>): ReadonlySet<string> =>
  new Set(deps.settings.get('excluded_namespaces').map((n) => n.toLowerCase()))

/**
 * `<entry>…</entry>`, `head` right after the opening tag: in a feed the `alternate` link to the
 * complete Entry Document, in that document its own links instead.
 */
export function archiveEntry(
  row: ArchiveRow,
  excluded: ReadonlySet<string>,
  open = '<entry>',
  head: string[] = [link('alternate', `/api/opds/${row.id}`, ENTRY_TYPE)],
): string {
  const base = `/api/opds/${row.id}`
  const tags = splitTags(row.tags)
  const authors = tags
    .filter((tag) => tagNamespace(tag) === 'artist')
    .map((tag) => `<author>${element('name', {}, tag.slice(tag.indexOf(':') + 1).trim())}</author>`)
  // LANraragi's Dublin Core fields from the tags: language, and the group as publisher.
  const language = firstValue(tags, 'language')
  const publisher = firstValue(tags, 'group')
  const categories = tags
    .filter((tag) => !excluded.has(tagNamespace(tag)))
    .map((tag) => element('category', { term: tag, label: tag }))
  // PSE 1.2 numbers {pageNumber} from 0 (the pse route takes it with zero_based=true) but lastRead
  // from 1, as the stored progress is (LANraragi's page numbers). 0 means never read: no lastRead.
  // Pages are sent as JPEG whatever they are stored as (domain/opds/images.ts).
  const stream = element('link', {
    rel: PSE_STREAM_REL,
    type: OPDS_IMAGE_TYPE,
    href: `${base}/pse?page={pageNumber}&zero_based=true&max_width={maxWidth}`,
    'pse:count': row.pagecount,
    'pse:lastRead': row.progress > 0 ? row.progress : undefined,
    'pse:lastReadDate': row.lastreadtime > 0 ? iso(row.lastreadtime) : undefined,
  })
  return [
    open,
    ...head,
    element('title', {}, row.title),
    element('id', {}, `urn:tankobun:${row.id}`),
    element('updated', {}, iso(updatedOf(row))),
    ...authors,
    ...(language ? [element('dcterms:language', {}, language)] : []),
    ...(publisher ? [element('dcterms:publisher', {}, publisher)] : []),
    ...(row.summary.trim() ? [element('summary', { type: 'text' }, row.summary)] : []),
    // Atom wants content (or an alternate link). Parsers that read both prefer it to summary, so
    // it carries the summary too, with the page count after it.
    element('content', { type: 'text' }, contentText(row)),
    ...categories,
    link('http://opds-spec.org/image', `${base}/thumbnail`, OPDS_IMAGE_TYPE),
    link('http://opds-spec.org/image/thumbnail', `${base}/thumbnail`, OPDS_IMAGE_TYPE),
    link(
      'http://opds-spec.org/acquisition',
      `${base}/download`,
      readerMimeType(downloadExtension(row)),
      `${row.filename}.${downloadExtension(row)}`,
    ),
    stream,
    '</entry>',
  ].join('\n')
}

function contentText(row: ArchiveRow): string {
  const pages = row.pagecount === 1 ? '1 page' : `${row.pagecount} pages`
  return row.summary.trim() ? `${row.summary.trim()}\n\n${pages}` : pages
}

/** GET /api/opds/{id}: the archive's entry as a document of its own, linking itself and the root. */
export function entryDocument(deps: Pick<Deps, 'settings'>, row: ArchiveRow): string {
  const head = [
    link('self', `/api/opds/${row.id}`, ENTRY_TYPE),
    link('start', '/api/opds', NAVIGATION_TYPE),
  ]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    archiveEntry(row, excludedNamespaces(deps), openTag('entry'), head),
  ].join('\n')
}
