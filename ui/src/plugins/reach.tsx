// What a plugin may reach, as its card shows it: the hosts its fetch may reach, the login plugin
// whose session it rides (flagged when that one is not installed), and for a login plugin the
// plugins that ride its session (docs/plugins.md, Login plugins).
import type { Plugin } from './types.ts'

export function PluginReach({ plugin }: { plugin: Plugin }) {
  const hosts = plugin.hosts ?? []
  const usedBy = plugin.used_by ?? []
  return (
    <dl class="plugin-reach muted" aria-label={`What ${plugin.name} may reach`}>
      <dt>Hosts</dt>
      <dd>{hosts.length > 0 ? hosts.join(', ') : 'none'}</dd>
      {plugin.login_from && plugin.type !== 'login' && (
        <>
          <dt>Uses login</dt>
          <dd>
            <code>{plugin.login_from}</code>
            {plugin.login_from_installed === false && (
              <strong class="error"> (not installed: its runs fail)</strong>
            )}
          </dd>
        </>
      )}
      {plugin.type === 'login' && (
        <>
          <dt>Used by</dt>
          <dd>{usedBy.length > 0 ? usedBy.join(', ') : 'no plugin'}</dd>
        </>
      )}
    </dl>
  )
}
