// Built-in metadata plugin: tags of an E-Hentai gallery, found by its URL (the one-shot argument)
// or by the archive's title through the site's search, read from the gallery API (gdata).

const SITE = 'https://e-hentai.org'
const API = 'https://api.e-hentai.org/api.php'

export function pluginInfo(): PluginInfo {
  return {
    name: 'E-Hentai',
    author: 'Tankobun',
    description:
      'Searches E-Hentai for the archive (or takes a gallery URL) and copies its tags, ' +
      'category, uploader, date and title.',
    version: '1.0',
    type: 'metadata',
    login_from: 'login/ehentai',
    oneshot_arg: 'E-Hentai or ExHentai gallery URL (https://e-hentai.org/g/<id>/<token>/)',
    parameters: [
      { name: 'lang', type: 'string', desc: 'Language added to the title search (english)' },
      { name: 'savetitle', type: 'bool', desc: 'Save the gallery title', default_value: false },
      {
        name: 'jpntitle',
        type: 'bool',
        desc: 'Save the Japanese title when the gallery has one',
        default_value: false,
      },
      {
        name: 'additionaltags',
        type: 'bool',
        desc: 'Add uploader: and timestamp: tags',
        default_value: true,
      },
      { name: 'exhentai', type: 'bool', desc: 'Search ExHentai (needs a login)' },
      { name: 'site_url', type: 'string', desc: 'Search site base URL; empty for e-hentai.org' },
      { name: 'api_url', type: 'string', desc: 'Gallery API URL; empty for api.e-hentai.org' },
    ],
    hosts: ['e-hentai.org', 'exhentai.org', 'api.e-hentai.org'],
  }
}

type Gallery = {
  gid?: number
  token?: string
  error?: string
  title?: string
  title_jpn?: string
  category?: string
  uploader?: string
  posted?: string
  tags?: string[]
}

const GALLERY_URL = /(e-hentai|exhentai)\.org\/g\/(\d+)\/([0-9a-f]+)/i

export async function execMetadata(ctx: PluginContext): Promise<MetadataResult | PluginError> {
  const args = ctx.args
  const host = on(args.exhentai) ? 'https://exhentai.org' : SITE
  const site = text(args.site_url).replace(/\/+$/, '') || host
  const api = text(args.api_url) || API

  let id: { gid: number; token: string } | undefined
  const given = ctx.oneshot?.match(GALLERY_URL)
  if (given) id = { gid: Number(given[2]), token: given[3]!.toLowerCase() }
  else if (ctx.oneshot) return { error: `Not an E-Hentai gallery URL: ${ctx.oneshot}` }
  else {
    const title = ctx.archive?.title?.trim()
    if (!title) return { error: 'This archive has no title to search for' }
    id = await search(site, title, text(args.lang))
    if (!id) return { error: `No E-Hentai gallery found for "${title}"` }
  }

  const response = await fetch(api, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ method: 'gdata', gidlist: [[id.gid, id.token]], namespace: 1 }),
  })
  if (!response.ok) return { error: `E-Hentai API answered ${response.status}` }
  const data = (await response.json()) as { gmetadata?: Gallery[]; error?: string }
  const gallery = data.gmetadata?.[0]
  if (!gallery || gallery.error || data.error)
    return { error: `E-Hentai API: ${gallery?.error ?? data.error ?? 'no gallery'}` }

  const tags = (gallery.tags ?? []).map(clean).filter(Boolean)
  if (gallery.category) tags.push(`category:${clean(gallery.category).toLowerCase()}`)
  if (on(args.additionaltags, true)) {
    if (gallery.uploader) tags.push(`uploader:${clean(gallery.uploader)}`)
    if (gallery.posted && /^\d+$/.test(gallery.posted)) tags.push(`timestamp:${gallery.posted}`)
  }
  const galleryHost = site.includes('exhentai') ? 'exhentai.org' : 'e-hentai.org'
  tags.push(`source:https://${galleryHost}/g/${id.gid}/${id.token}/`)

  const result: MetadataResult = { tags: tags.join(', ') }
  if (on(args.savetitle)) {
    const title = on(args.jpntitle) && gallery.title_jpn ? gallery.title_jpn : gallery.title
    if (title) result.title = decodeEntities(title)
  }
  return result
}

/** The first gallery of the search results page for the title (and language). */
async function search(site: string, title: string, lang: string) {
  const url = new URL(`${site}/`)
  url.searchParams.set('f_search', lang ? `${title} language:${lang}` : title)
  const response = await fetch(url)
  if (!response.ok) throw new Error(`E-Hentai search answered ${response.status}`)
  const match = (await response.text()).match(/\/g\/(\d+)\/([0-9a-f]+)\//i)
  console.info('search', url.searchParams.get('f_search'), match ? match[0] : 'no gallery')
  return match ? { gid: Number(match[1]), token: match[2]!.toLowerCase() } : undefined
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

function on(value: unknown, fallback = false): boolean {
  if (value === undefined || value === null || value === '') return fallback
  return !(value === false || value === 0 || value === '0' || value === 'false')
}

/** Tag values keep no commas (the tag list is comma-separated) and no HTML entities. */
const clean = (value: string) => decodeEntities(value).replace(/,/g, ' ').trim()

function decodeEntities(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (all, code: string) => {
    if (code[0] !== '#') return named[code.toLowerCase()] ?? all
    const point =
      code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : Number(code.slice(1))
    return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : all
  })
}
