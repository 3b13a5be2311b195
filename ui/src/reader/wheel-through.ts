// The bars lie over the stage: a mouse wheel over them (shown or faded out) must still scroll the
// pages in vertical mode, where the stage is the scrolling box. A box inside a bar that can scroll
// that way itself (a long contents list) keeps the wheel.

/** Pixels for a wheel event's delta, whatever unit the device reports. */
function pixels(e: WheelEvent, page: number): number {
  if (e.deltaMode === WheelEvent.DOM_DELTA_LINE) return e.deltaY * 16
  if (e.deltaMode === WheelEvent.DOM_DELTA_PAGE) return e.deltaY * page
  return e.deltaY
}

/** Whether `el` or a box between it and `bar` would scroll by `dy` itself. */
function scrollsItself(el: Element | null, bar: Element, dy: number): boolean {
  for (let box = el; box && box !== bar.parentElement; box = box.parentElement) {
    const style = getComputedStyle(box)
    if (style.overflowY !== 'auto' && style.overflowY !== 'scroll') continue
    const room = dy > 0 ? box.scrollHeight - box.clientHeight - box.scrollTop : box.scrollTop
    if (room > 0) return true
  }
  return false
}

/** A bar's onWheel: hands the wheel to `stage` unless something in the bar scrolls with it. */
export function wheelThrough(stage: { current: HTMLElement | null }) {
  return (e: WheelEvent) => {
    const target = stage.current
    if (!target || e.deltaY === 0) return
    if (scrollsItself(e.target as Element, e.currentTarget as Element, e.deltaY)) return
    target.scrollBy({ top: pixels(e, target.clientHeight) })
  }
}
