// The plugins of one type in priority order. Reordering (move buttons, or dragging the handle
// with any pointer: mouse, pen, touch) saves the whole order with PUT /api/plugins/priority.
import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { notifyError } from '../components/toast.tsx'
import { PluginCard } from './plugin-card.tsx'
import type { Plugin } from './types.ts'

const TITLES: Record<string, string> = {
  metadata: 'Metadata plugins',
  download: 'Download plugins',
  login: 'Login plugins',
  script: 'Script plugins',
}

function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list]
  const [item] = next.splice(from, 1)
  next.splice(to, 0, item!)
  return next
}

export function TypeList({
  type,
  plugins,
  onChanged,
}: {
  type: string
  plugins: Plugin[]
  /** A plugin was deleted: the page lists again. */
  onChanged: () => void
}) {
  const [order, setOrder] = useState(plugins)
  const [drag, setDrag] = useState<{ from: number; over: number } | null>(null)
  useEffect(() => setOrder(plugins), [plugins])

  const move = async (from: number, to: number) => {
    if (to < 0 || to >= order.length || from === to) return
    const before = order
    const next = moved(order, from, to)
    setOrder(next)
    try {
      await api('/api/plugins/priority', {
        method: 'PUT',
        json: { type, namespaces: next.map((p) => p.namespace) },
      })
    } catch (e) {
      setOrder(before)
      notifyError(e)
    }
  }

  const start = (index: number, e: PointerEvent) => {
    ;(e.currentTarget as Element).setPointerCapture(e.pointerId)
    setDrag({ from: index, over: index })
  }
  // The handle holds the pointer capture: the card under the pointer is found by position.
  const track = (e: PointerEvent) => {
    if (!drag) return
    const card = document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-order-index]')
    const over = card ? Number(card.getAttribute('data-order-index')) : drag.over
    if (over !== drag.over && card?.parentElement?.dataset.type === type) setDrag({ ...drag, over })
  }
  const end = () => {
    if (drag) move(drag.from, drag.over)
    setDrag(null)
  }

  return (
    <section class="stack" aria-labelledby={`plugins-${type}`}>
      <h2 id={`plugins-${type}`}>{TITLES[type] ?? type}</h2>
      {order.length === 0 ? (
        <p class="muted">None installed.</p>
      ) : (
        <ol class="plugin-list" data-type={type} aria-label={TITLES[type] ?? type}>
          {order.map((plugin, i) => (
            <PluginCard
              key={plugin.namespace}
              plugin={plugin}
              index={i}
              count={order.length}
              dragging={drag?.from === i}
              over={drag !== null && drag.over === i && drag.from !== i}
              onMove={move}
              onDragStart={start}
              onDragMove={track}
              onDragEnd={end}
              onDeleted={onChanged}
            />
          ))}
        </ol>
      )}
    </section>
  )
}
