// Built-in metadata plugin: tags and title of a panda.chaika.moe archive, found by its URL or id
// (the one-shot argument) or by the archive's title through the site's JSON search.

const SITE = 'https://panda.chaika.moe'

export function pluginInfo(): PluginInfo {
  return {
    name: 'Chaika.moe',
    author: 'Tankobun',
    description:
      'Searches panda.chaika.moe for the archive (or takes an archive URL or id) and copies its tags and title.',
    version: '1.0',
    type: 'metadata',
    oneshot_arg: 'Chaika archive URL or id (https://panda.chaika.moe/archive/<id>/)',
    parameters: [
      { name: 'savetitle', type: 'bool', desc: 'Save the archive title', default_value: false },
      { name: 'site_url', type: 'string', desc: 'Site base URL; empty for panda.chaika.moe' },
    ],
    hosts: ['panda.chaika.moe'],
  }
}

type Archive = {
  id?: number | string
  title?: string
  title_jpn?: string
  category?: string
  tags?: string[]
}

export async function execMetadata(ctx: PluginContext): Promise<MetadataResult | PluginError> {
  const site = text(ctx.args.site_url).replace(/\/+$/, '') || SITE

  let archive: Archive | undefined
  const given = ctx.oneshot?.trim()
  if (given) {
    const id = given.match(/^(\d+)$/)?.[1] ?? given.match(/\/archive\/(\d+)/i)?.[1]
    if (!id) return { error: `Not a Chaika archive URL or id: ${given}` }
    const response = await fetch(`${site}/api?archive=${id}`)
    if (!response.ok) return { error: `Chaika answered ${response.status} for archive ${id}` }
    archive = (await response.json()) as Archive
  } else {
    const title = ctx.archive?.title?.trim()
    if (!title) return { error: 'This archive has no title to search for' }
    const url = new URL(`${site}/jsearch`)
    url.searchParams.set('title', title)
    const response = await fetch(url)
    if (!response.ok) return { error: `Chaika search answered ${response.status}` }
    // The search answers a list of archives; an object holding one under `archives` is read too.
    const data = (await response.json()) as Archive[] | { archives?: Archive[] }
    archive = Array.isArray(data) ? data[0] : data.archives?.[0]
    console.info('search', title, archive ? `archive ${archive.id}` : 'no archive')
    if (!archive) return { error: `No Chaika archive found for "${title}"` }
  }
  if (archive.id === undefined) return { error: 'Chaika: no archive' }

  // Chaika writes tags as namespace:words_with_underscores; none: marks a plain tag.
  const tags = (archive.tags ?? [])
    .map((tag) => tag.replace(/_/g, ' ').replace(/,/g, ' ').trim())
    .map((tag) => tag.replace(/^none:/, ''))
    .filter(Boolean)
  if (archive.category) tags.push(`category:${archive.category.toLowerCase()}`)
  tags.push(`source:https://panda.chaika.moe/archive/${archive.id}/`)

  const result: MetadataResult = { tags: [...new Set(tags)].join(', ') }
  if (on(ctx.args.savetitle) && archive.title) result.title = archive.title
  return result
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

function on(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false
  return !(value === false || value === 0 || value === '0' || value === 'false')
}
