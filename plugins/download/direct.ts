// Built-in download plugin: a direct link to an archive file is downloaded as it is, named after
// the last part of its path.

export function pluginInfo(): PluginInfo {
  return {
    name: 'Direct link',
    author: 'Tankobun',
    description: 'Downloads an http(s) link that points straight at an archive file.',
    version: '1.0',
    type: 'download',
    url_regex:
      '^https?://[^\\s?#]+\\.(zip|cbz|rar|cbr|7z|cb7|tar|cbt|tar\\.gz|tgz|pdf|epub)([?#]\\S*)?$',
  }
}

const ARCHIVE =
  /^https?:\/\/[^\s?#]+\.(zip|cbz|rar|cbr|7z|cb7|tar|cbt|tar\.gz|tgz|pdf|epub)([?#]\S*)?$/i

// It fetches nothing: the download queue makes the transfer under the fetch rules, and a plugin's
// own fetch could only reach the hosts it lists, which a link to any site cannot name.
export function execDownload(ctx: PluginContext): DownloadResult | PluginError {
  const url = ctx.url?.trim() ?? ''
  if (!ARCHIVE.test(url)) return { error: `Not a direct link to an archive file: ${url}` }
  const path = new URL(url).pathname
  let name = path.slice(path.lastIndexOf('/') + 1)
  try {
    name = decodeURIComponent(name)
  } catch {
    // A malformed escape keeps the name as written.
  }
  name = name.replace(/[\\/\u0000-\u001f]/g, '_')
  return { downloads: [{ url, filename_hint: name }] }
}
