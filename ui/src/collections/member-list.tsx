// The ordered members of a Tankoubon: drag a row by its handle (pointer events, so mouse, pen and
// touch alike), or move it with its up/down buttons (keyboard, and touch without precision).
import { useRef, useState } from 'preact/hooks'
import { href } from '../router.ts'
import type { ArchiveMeta } from '../types.ts'

/** The list with the item at `from` moved to index `to`. */
export function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list]
  const [item] = next.splice(from, 1)
  next.splice(to, 0, item!)
  return next
}

export function MemberList(props: {
  members: ArchiveMeta[]
  onChange: (members: ArchiveMeta[]) => void
}) {
  const { members, onChange } = props
  const rows = useRef<(HTMLLIElement | null)[]>([])
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null)

  /** Where the dragged row would land: the count of other rows whose middle is above the pointer. */
  const targetAt = (from: number, y: number) =>
    rows.current.filter((row, i) => {
      if (!row || i === from || i >= members.length) return false
      const box = row.getBoundingClientRect()
      return box.top + box.height / 2 < y
    }).length

  const title = (m: ArchiveMeta) => m.title || m.filename || m.arcid
  return (
    <ol class="tank-members" aria-label="Members">
      {members.map((m, i) => (
        <li
          key={m.arcid}
          ref={(el) => {
            rows.current[i] = el
          }}
          class={`card tank-member${drag?.from === i ? ' tank-dragging' : ''}${
            drag && drag.from !== i && drag.to === i ? ' tank-drop' : ''
          }`}
          aria-label={title(m)}
        >
          <span
            class="tank-handle"
            aria-hidden="true"
            title="Drag to reorder"
            onPointerDown={(e) => {
              e.preventDefault()
              ;(e.currentTarget as HTMLElement).setPointerCapture(e.pointerId)
              setDrag({ from: i, to: i })
            }}
            onPointerMove={(e) =>
              drag && setDrag({ from: drag.from, to: targetAt(drag.from, e.clientY) })
            }
            onPointerUp={() => {
              if (drag && drag.to !== drag.from) onChange(moved(members, drag.from, drag.to))
              setDrag(null)
            }}
            onPointerCancel={() => setDrag(null)}
          >
            ⠿
          </span>
          <span class="tank-pos">{i + 1}.</span>
          <a class="tank-title" href={href(['archive', m.arcid])}>
            {title(m)}
          </a>
          <span class="muted">{m.pagecount} p.</span>
          <span class="row tank-actions">
            <button
              type="button"
              aria-label={`Move ${title(m)} up`}
              disabled={i === 0}
              onClick={() => onChange(moved(members, i, i - 1))}
            >
              ↑
            </button>
            <button
              type="button"
              aria-label={`Move ${title(m)} down`}
              disabled={i === members.length - 1}
              onClick={() => onChange(moved(members, i, i + 1))}
            >
              ↓
            </button>
            <button
              type="button"
              class="danger"
              aria-label={`Remove ${title(m)}`}
              onClick={() => onChange(members.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </span>
        </li>
      ))}
    </ol>
  )
}
