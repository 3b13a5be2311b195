// Tags as chips, coloured by namespace. Always rendered as text: tags come from archives and
// plugins, never trusted as markup.
import { href } from '../router.ts'

export function splitTags(tags: string | undefined): string[] {
  return (tags ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean)
}

export function namespaceOf(tag: string): string {
  const colon = tag.indexOf(':')
  return colon > 0 ? tag.slice(0, colon) : ''
}

/** A stable hue per namespace, so `artist:` is the same colour everywhere. */
export function namespaceHue(namespace: string): number {
  let hash = 0
  for (const ch of namespace) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0
  return hash % 360
}

export function TagChip({ tag, link = true }: { tag: string; link?: boolean }) {
  const namespace = namespaceOf(tag)
  const style = namespace ? { '--tag-hue': String(namespaceHue(namespace)) } : undefined
  const body = namespace ? (
    <>
      <span class="tag-ns">{namespace}</span>
      <span class="tag-value">{tag.slice(namespace.length + 1)}</span>
    </>
  ) : (
    <span class="tag-value">{tag}</span>
  )
  return link ? (
    <a class="tag" style={style} href={href([], { q: searchTermFor(tag) })}>
      {body}
    </a>
  ) : (
    <span class="tag" style={style}>
      {body}
    </span>
  )
}

/** The search term that finds exactly this tag (quoted when it has spaces, `$` for exact). */
export function searchTermFor(tag: string): string {
  return /[\s,"]/.test(tag) ? `"${tag.replace(/"/g, '')}"$` : `${tag}$`
}

export function TagList({ tags, link = true }: { tags: string; link?: boolean }) {
  const list = splitTags(tags).filter((tag) => !tag.startsWith('date_added:'))
  return (
    <div class="tags">
      {list.map((tag) => (
        <TagChip key={tag} tag={tag} link={link} />
      ))}
    </div>
  )
}
