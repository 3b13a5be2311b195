// Keyboard navigation. Arrow keys follow the screen (their meaning flips in right-to-left
// reading); Page Up/Down and Space follow the book. Keys typed into a field stay the field's.
import { useLayoutEffect, useRef } from 'preact/hooks'

type Actions = {
  step: (delta: 1 | -1) => void
  side: (which: 'left' | 'right') => void
  first: () => void
  last: () => void
  close: () => void
}

const FIELDS = new Set(['INPUT', 'TEXTAREA', 'SELECT'])

export function useReaderKeys(actions: Actions) {
  const current = useRef(actions)
  current.current = actions
  // Attached with the first render, so a key pressed as soon as the page shows is not lost.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return
      const target = e.target as HTMLElement | null
      if (target && (FIELDS.has(target.tagName) || target.isContentEditable)) {
        if (e.key === 'Escape') target.blur()
        return
      }
      // Space and Enter on a focused button press that button.
      if (target?.tagName === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return
      const a = current.current
      const handlers: Record<string, () => void> = {
        ArrowLeft: () => a.side('left'),
        ArrowRight: () => a.side('right'),
        PageDown: () => a.step(1),
        PageUp: () => a.step(-1),
        ' ': () => a.step(e.shiftKey ? -1 : 1),
        Home: a.first,
        End: a.last,
        Escape: a.close,
      }
      const handler = handlers[e.key]
      if (!handler) return
      e.preventDefault()
      handler()
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])
}
