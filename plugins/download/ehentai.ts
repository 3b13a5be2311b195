// Built-in download plugin: an E-Hentai or ExHentai gallery URL becomes the link to its archive,
// through the site's archiver (the same path a member takes by hand: the archiver page, then its
// form, whose answer sends the browser to the file). The archiver spends the member's GP, so it
// needs the login plugin's cookies. With the gallery API's answer it also reports the gallery's
// versions, so the download queue can tell when a newer one is already in the library.

const API = 'https://api.e-hentai.org/api.php'

export function pluginInfo(): PluginInfo {
  return {
    name: 'E-Hentai Downloader',
    author: 'Tankobun',
    description:
      "Downloads an E-Hentai or ExHentai gallery's archive through the site's archiver " +
      '(it spends GP: make sure the account has enough).',
    version: '1.0',
    type: 'download',
    login_from: 'login/ehentai',
    url_regex: '^https?://(e-|ex)hentai\\.org/g/\\d+/[0-9a-f]+',
    parameters: [
      {
        name: 'resampled',
        type: 'bool',
        desc: 'Download the resampled archive instead of the original',
        default_value: false,
      },
      {
        name: 'site_url',
        type: 'string',
        desc: 'Archiver site base URL; empty for the gallery site',
      },
      { name: 'api_url', type: 'string', desc: 'Gallery API URL; empty for api.e-hentai.org' },
    ],
    hosts: ['e-hentai.org', 'exhentai.org', 'api.e-hentai.org'],
  }
}

const GALLERY_PATH = /\/g\/(\d+)\/([0-9a-f]+)/i

type GalleryData = {
  gid?: number
  token?: string
  error?: string
  title?: string
  posted?: string
  current_gid?: number | string
  current_key?: string
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
const on = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true'

export async function execDownload(ctx: PluginContext): Promise<DownloadResult | PluginError> {
  const url = ctx.url?.trim() ?? ''
  const match = url.match(GALLERY_PATH)
  if (!match || !/^https?:\/\//i.test(url)) return { error: `Not an E-Hentai gallery URL: ${url}` }
  const gid = match[1]!
  const token = match[2]!.toLowerCase()
  const galleryHost = /exhentai\.org/i.test(url) ? 'https://exhentai.org' : 'https://e-hentai.org'
  const site = text(ctx.args.site_url).replace(/\/+$/, '') || galleryHost
  const archiver = `${site}/archiver.php?gid=${gid}&token=${token}`

  // A GET first: it tells a bad key or a missing login apart before any GP is spent.
  const page = await (await fetch(archiver)).text()
  if (page.includes('Invalid archiver key')) return { error: `Invalid archiver key (${archiver})` }
  if (page.includes('This page requires you to log on'))
    return {
      error: 'E-Hentai asks for a login: set the member id and pass hash in login/ehentai.',
    }

  const resampled = on(ctx.args.resampled)
  const form = new URLSearchParams({
    dltype: resampled ? 'res' : 'org',
    dlcheck: resampled ? 'Download Resample Archive' : 'Download Original Archive',
  })
  const answer = await (await fetch(archiver, { method: 'POST', body: form })).text()
  if (/insufficient funds/i.test(answer))
    return { error: 'Not enough GP on the E-Hentai account to download this gallery.' }
  const target = answer.match(/document\.location\s*=\s*["']([^"']+)["']/i)?.[1]
  if (!target) {
    console.warn(answer.slice(0, 500))
    return { error: 'The archiver did not answer a download link (see the log).' }
  }
  // The link the archiver answers starts the transfer with ?start=1.
  const download = new URL(target, archiver)
  download.search = 'start=1'

  const gallery = await galleryData(text(ctx.args.api_url) || API, Number(gid), token)
  const name = gallery?.title ? decodeEntities(gallery.title) : ''
  return {
    downloads: [
      {
        url: download.href,
        ...(name ? { filename_hint: `${name.replace(/[\\/\u0000-\u001f]/g, '_')}.zip` } : {}),
      },
    ],
    ...(gallery
      ? { version_history: await versions(gallery, galleryHost, text(ctx.args.api_url) || API) }
      : {}),
  }
}

/** The gallery API's record of one gallery, or undefined when the API gives none. */
async function galleryData(
  api: string,
  gid: number,
  token: string,
): Promise<GalleryData | undefined> {
  try {
    const response = await fetch(api, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'gdata', gidlist: [[gid, token]], namespace: 1 }),
    })
    if (!response.ok) return undefined
    const gallery = ((await response.json()) as { gmetadata?: GalleryData[] }).gmetadata?.[0]
    return gallery && !gallery.error ? gallery : undefined
  } catch (err) {
    console.warn(`gallery API: ${String(err)}`)
    return undefined
  }
}

const postedAt = (posted: string | undefined) =>
  posted && /^\d+$/.test(posted) ? new Date(Number(posted) * 1000).toISOString() : undefined

/** This gallery and, when the site has a newer version of it, that one, each with its date. */
async function versions(gallery: GalleryData, host: string, api: string) {
  const own = postedAt(gallery.posted)
  const history: { source: string; posted_at: string }[] = []
  if (own) history.push({ source: `${host}/g/${gallery.gid}/${gallery.token}/`, posted_at: own })
  const currentGid = Number(gallery.current_gid)
  if (currentGid && currentGid !== gallery.gid && gallery.current_key) {
    const current = await galleryData(api, currentGid, gallery.current_key)
    const posted = postedAt(current?.posted)
    if (posted)
      history.push({ source: `${host}/g/${currentGid}/${gallery.current_key}/`, posted_at: posted })
  }
  return history
}

/** The API's titles carry HTML entities (`&amp;`, `&#039;`). */
function decodeEntities(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1]?.toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : Number(code.slice(1))
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : whole
    }
    return named[code.toLowerCase()] ?? whole
  })
}
