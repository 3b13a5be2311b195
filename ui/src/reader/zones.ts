// Click zones of a reader stage: its left, middle and right thirds. What a zone does is the
// reader's business (right-to-left flips the sides).
export type Zone = 'left' | 'center' | 'right'

export function zoneAt(e: MouseEvent, stage: HTMLElement): Zone {
  const box = stage.getBoundingClientRect()
  const x = (e.clientX - box.left) / box.width
  return x < 1 / 3 ? 'left' : x > 2 / 3 ? 'right' : 'center'
}
