// One archive as an OPDS entry: inside an acquisition feed, or alone as an Atom Entry Document
// (GET /api/opds/{id}, LANraragi's single-entry read). Shared pieces of every OPDS document too:
// the namespaces of the root element, links, dates.
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { archiveMimeType } from '../../model/formats.ts'
import { splitTags, tagNamespace } from '../../model/tags.ts'
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

const acquisitionType = (extension: string) =>
  Object.hasOwn(READER_TYPES, extension) ? READER_TYPES[extension]! : archiveMimeType(extension)

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

/** `<entry>…</entry>`; `head` goes right after the opening tag (a lone entry's own links). */
export function archiveEntry(
  row: ArchiveRow,
  excluded: ReadonlySet<string>,
  thumbType: string,
  open = '<entry>',
  head: string[] = [],
): string {
  const base = `/api/archives/${row.id}`
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
  // PSE numbers pages from 0 ({pageNumber} and lastRead); the page route takes them with
  // zero_based=true. Progress 0 means never read: no lastRead then.
  const stream = element('link', {
    rel: PSE_STREAM_REL,
    type: 'image/jpeg',
    href: `${base}/page?page={pageNumber}&zero_based=true&max_width={maxWidth}`,
    'pse:count': row.pagecount,
    'pse:lastRead': row.progress > 0 ? row.progress - 1 : undefined,
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
    ...categories,
    link('http://opds-spec.org/image', `${base}/thumbnail`, thumbType),
    link('http://opds-spec.org/image/thumbnail', `${base}/thumbnail`, thumbType),
    link(
      'http://opds-spec.org/acquisition',
      `${base}/download`,
      acquisitionType(row.extension),
      `${row.filename}.${row.extension}`,
    ),
    stream,
    '</entry>',
  ].join('\n')
}

/** GET /api/opds/{id}: the archive's entry as a document of its own, linking itself and the root. */
export function entryDocument(deps: Pick<Deps, 'settings'>, row: ArchiveRow): string {
  const thumbType = `image/${deps.settings.get('thumbnail_format')}`
  const head = [
    link('self', `/api/opds/${row.id}`, ENTRY_TYPE),
    link('start', '/api/opds', NAVIGATION_TYPE),
  ]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    archiveEntry(row, excludedNamespaces(deps), thumbType, openTag('entry'), head),
  ].join('\n')
}
