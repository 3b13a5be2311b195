// One plugin in its type's list: what it is (name, version, author, description, all as text),
// move buttons and a drag handle for its priority, its settings, options and run panel, and a
// delete button for an uploaded one (built-ins cannot be deleted).
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { ConfirmButton } from '../components/confirm.tsx'
import { notify, notifyError } from '../components/toast.tsx'
import { OptionsForm, SettingsForm } from './settings.tsx'
import { RunPanel } from './run.tsx'
import { PluginReach } from './reach.tsx'
import { safeIcon, type Plugin } from './types.ts'

type Props = {
  plugin: Plugin
  index: number
  count: number
  dragging: boolean
  over: boolean
  onMove: (from: number, to: number) => void
  onDragStart: (index: number, e: PointerEvent) => void
  onDragMove: (e: PointerEvent) => void
  onDragEnd: () => void
  onDeleted: () => void
}

export function PluginCard(props: Props) {
  const { plugin, index, count } = props
  const [open, setOpen] = useState(false)
  const icon = safeIcon(plugin.icon)
  const classes = ['card', 'plugin']
  if (props.dragging) classes.push('plugin-dragging')
  if (props.over) classes.push('plugin-over')
  return (
    <li class={classes.join(' ')} data-order-index={index} aria-label={plugin.name}>
      <div class="plugin-head">
        <button
          type="button"
          class="icon plugin-handle"
          aria-label={`Drag ${plugin.name} to reorder`}
          onPointerDown={(e) => props.onDragStart(index, e)}
          onPointerMove={props.onDragMove}
          onPointerUp={props.onDragEnd}
          onPointerCancel={props.onDragEnd}
        >
          ⠿
        </button>
        {icon && <img class="plugin-icon" src={icon} alt="" />}
        <div class="plugin-info">
          <div class="row plugin-title">
            <strong>{plugin.name}</strong>
            <span class="muted">v{plugin.version}</span>
            {plugin.author && <span class="muted">by {plugin.author}</span>}
            {plugin.origin !== 'builtin' && <span class="plugin-origin">{plugin.origin}</span>}
          </div>
          <code class="muted plugin-ns">{plugin.namespace}</code>
          {plugin.description && <p class="plugin-desc">{plugin.description}</p>}
          <PluginReach plugin={plugin} />
        </div>
        <div class="plugin-moves">
          <button
            type="button"
            aria-label={`Move ${plugin.name} up`}
            disabled={index === 0}
            onClick={() => props.onMove(index, index - 1)}
          >
            ↑
          </button>
          <button
            type="button"
            aria-label={`Move ${plugin.name} down`}
            disabled={index === count - 1}
            onClick={() => props.onMove(index, index + 1)}
          >
            ↓
          </button>
        </div>
      </div>
      <div class="row">
        <button
          type="button"
          aria-expanded={open}
          aria-label={`${open ? 'Close' : 'Configure'} ${plugin.name}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Close' : 'Configure'}
        </button>
        <a
          class="button"
          href={`/api/plugins/export?namespace=${encodeURIComponent(plugin.namespace)}`}
          download
        >
          Export
        </a>
        {plugin.origin !== 'builtin' && (
          <ConfirmButton
            danger
            label={`Delete ${plugin.name}`}
            question={`Delete ${plugin.name} and its settings?`}
            onConfirm={async () => {
              try {
                await api(`/api/plugins?namespace=${encodeURIComponent(plugin.namespace)}`, {
                  method: 'DELETE',
                })
                notify(`Deleted ${plugin.namespace}.`)
                props.onDeleted()
              } catch (e) {
                notifyError(e)
              }
            }}
          >
            Delete
          </ConfirmButton>
        )}
      </div>
      {open && (
        <div class="plugin-panels">
          <SettingsForm plugin={plugin} />
          <OptionsForm plugin={plugin} />
          <RunPanel plugin={plugin} />
        </div>
      )}
    </li>
  )
}
