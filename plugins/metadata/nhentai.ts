// Built-in metadata plugin: tags and title of an nHentai gallery, found by its URL or id (the
// one-shot argument) or by the archive's title through the site's search API.

const SITE = 'https://nhentai.net'

export function pluginInfo(): PluginInfo {
  return {
    name: 'nHentai',
    author: 'Tankobun',
    description:
      'Searches nHentai for the archive (or takes a gallery URL or id) and copies its tags and title.',
    version: '1.0',
    type: 'metadata',
    oneshot_arg: 'nHentai gallery URL or id (https://nhentai.net/g/<id>/)',
    parameters: [
      { name: 'savetitle', type: 'bool', desc: 'Save the gallery title', default_value: false },
      {
        name: 'jpntitle',
        type: 'bool',
        desc: 'Save the Japanese title when the gallery has one',
        default_value: false,
      },
      { name: 'site_url', type: 'string', desc: 'Site base URL; empty for nhentai.net' },
    ],
    hosts: ['nhentai.net'],
  }
}

type Gallery = {
  id?: number | string
  title?: { english?: string; japanese?: string; pretty?: string }
  tags?: { type?: string; name?: string }[]
  error?: string
}

/** Tag types that become a namespace; `tag` stays a plain tag, others are dropped. */
const NAMESPACES = new Set(['artist', 'group', 'parody', 'character', 'language', 'category'])

export async function execMetadata(ctx: PluginContext): Promise<MetadataResult | PluginError> {
  const site = text(ctx.args.site_url).replace(/\/+$/, '') || SITE

  let gallery: Gallery | undefined
  const given = ctx.oneshot?.trim()
  if (given) {
    const id = given.match(/^(\d+)$/)?.[1] ?? given.match(/nhentai\.net\/g\/(\d+)/i)?.[1]
    if (!id) return { error: `Not an nHentai gallery URL or id: ${given}` }
    const response = await fetch(`${site}/api/gallery/${id}`)
    if (!response.ok) return { error: `nHentai answered ${response.status} for gallery ${id}` }
    gallery = (await response.json()) as Gallery
  } else {
    const title = ctx.archive?.title?.trim()
    if (!title) return { error: 'This archive has no title to search for' }
    const url = new URL(`${site}/api/galleries/search`)
    url.searchParams.set('query', `"${title.replace(/"/g, ' ')}"`)
    const response = await fetch(url)
    if (!response.ok) return { error: `nHentai search answered ${response.status}` }
    const data = (await response.json()) as { result?: Gallery[] }
    gallery = data.result?.[0]
    console.info('search', title, gallery ? `gallery ${gallery.id}` : 'no gallery')
    if (!gallery) return { error: `No nHentai gallery found for "${title}"` }
  }
  if (gallery.error || gallery.id === undefined)
    return { error: `nHentai: ${gallery.error ?? 'no gallery'}` }

  const tags: string[] = []
  for (const tag of gallery.tags ?? []) {
    const name = clean(tag.name ?? '')
    if (!name) continue
    if (tag.type === 'tag') tags.push(name)
    else if (tag.type && NAMESPACES.has(tag.type)) tags.push(`${tag.type}:${name}`)
  }
  tags.push(`source:https://nhentai.net/g/${gallery.id}/`)

  const result: MetadataResult = { tags: [...new Set(tags)].join(', ') }
  if (on(ctx.args.savetitle)) {
    const english = gallery.title?.english || gallery.title?.pretty
    const title =
      on(ctx.args.jpntitle) && gallery.title?.japanese ? gallery.title.japanese : english
    if (title) result.title = title
  }
  return result
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

function on(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false
  return !(value === false || value === 0 || value === '0' || value === 'false')
}

/** Tag values keep no commas: the tag list is comma-separated. */
const clean = (value: string) => value.replace(/,/g, ' ').trim()
