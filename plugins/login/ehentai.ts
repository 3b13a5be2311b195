// Built-in login plugin: the E-Hentai member cookies (ipb_member_id, ipb_pass_hash, and star for
// ExHentai) for e-hentai.org and exhentai.org, from the values the user copies out of a browser.

export function pluginInfo(): PluginInfo {
  return {
    name: 'E-Hentai',
    author: 'Tankobun',
    description: 'Logs in to E-Hentai and ExHentai with the cookies of a logged-in browser.',
    version: '1.0',
    type: 'login',
    // The session goes to these hosts only, whichever plugin names this one in login_from.
    hosts: ['e-hentai.org', '*.e-hentai.org', 'exhentai.org', '*.exhentai.org'],
    parameters: [
      // Cookies of a logged-in account: write-only over the API.
      { name: 'ipb_member_id', type: 'string', desc: 'ipb_member_id cookie', secret: true },
      { name: 'ipb_pass_hash', type: 'string', desc: 'ipb_pass_hash cookie', secret: true },
      { name: 'star', type: 'string', desc: 'star cookie (optional)', secret: true },
    ],
  }
}

const DOMAINS = ['.e-hentai.org', '.exhentai.org']

export function execLogin(ctx: PluginContext): LoginResult | PluginError {
  const value = (name: string) => {
    const raw = ctx.args[name]
    return typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : ''
  }
  const member = value('ipb_member_id')
  const hash = value('ipb_pass_hash')
  // Without credentials the plugins run as a guest: E-Hentai answers, ExHentai does not.
  if (!member && !hash) return { cookies: [] }
  if (!member || !hash) return { error: 'Both ipb_member_id and ipb_pass_hash are needed' }
  const pairs: [string, string][] = [
    ['ipb_member_id', member],
    ['ipb_pass_hash', hash],
  ]
  const star = value('star')
  if (star) pairs.push(['star', star])
  // Without this cookie ExHentai asks for a content warning confirmation on each gallery.
  pairs.push(['nw', '1'])
  return {
    cookies: DOMAINS.flatMap((domain) => pairs.map(([name, v]) => ({ name, value: v, domain }))),
  }
}
