// Built-in script plugin: which archive came from this URL? Looks for an archive whose `source:`
// tag names the URL, ignoring the scheme, a leading `www.`, a trailing slash and letter case (as
// LANraragi's Source Finder trims URLs before comparing).

export function pluginInfo(): PluginInfo {
  return {
    name: 'Source Finder',
    author: 'Tankobun',
    description: "Finds the archive whose 'source:' tag matches the given URL.",
    version: '1.0',
    type: 'script',
    oneshot_arg: 'URL to look for',
  }
}

/** The URL as sources are compared: no scheme, no leading www., no trailing slash, lower case. */
function trimUrl(url: string): string {
  return url
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/\/+$/, '')
    .toLowerCase()
}

export async function runScript(ctx: PluginContext): Promise<ScriptResult | PluginError> {
  const wanted = trimUrl(ctx.oneshot ?? '')
  if (wanted === '') return { error: 'No URL specified!' }
  const library = ctx.library
  if (!library) return { error: 'This plugin needs the library (run it on the server).' }
  // A wide search first (quotes keep commas in the URL; a quote inside becomes a one-character
  // wildcard), then the exact comparison on the trimmed forms.
  const pattern = wanted.replace(/"/g, '?')
  const found = await library.search(`"source:*${pattern}*"`, { limit: 1000 })
  for (const archive of found.archives) {
    for (const tag of archive.tags.split(',')) {
      const [namespace, ...rest] = tag.split(':')
      if (namespace?.trim().toLowerCase() !== 'source') continue
      if (trimUrl(rest.join(':')) === wanted) return { data: { total: 1, id: archive.arcid } }
    }
  }
  return { error: 'URL not found in database.' }
}
