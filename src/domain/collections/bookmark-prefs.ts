// The two display preferences of the bookmarks page. Display-only: stored as internal settings
// and deliberately kept out of any activity record.
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'

export const HOVER_PAGE_ORDERS = [
  'pageAsc',
  'pageDesc',
  'bookmarkedAtAsc',
  'bookmarkedAtDesc',
] as const
export type HoverPageOrder = (typeof HOVER_PAGE_ORDERS)[number]

const HOVER_ORDER_KEY = 'bookmarks.hover_page_order'
const ONLY_MATCHING_KEY = 'bookmarks.only_matching'

/** null until saved once (the client then uses its own default). */
export function getHoverPageOrder(deps: Pick<Deps, 'settings'>): HoverPageOrder | null {
  const saved = deps.settings.getInternal<string>(HOVER_ORDER_KEY)
  return HOVER_PAGE_ORDERS.find((o) => o === saved) ?? null
}

export function setHoverPageOrder(deps: Pick<Deps, 'settings'>, order: string): HoverPageOrder {
  const valid = HOVER_PAGE_ORDERS.find((o) => o === order)
  if (!valid) throw fail.bad_request(`order must be one of ${HOVER_PAGE_ORDERS.join(', ')}.`)
  deps.settings.setInternal(HOVER_ORDER_KEY, valid)
  return valid
}

/** false until set. */
export function getOnlyMatching(deps: Pick<Deps, 'settings'>): boolean {
  return deps.settings.getInternal<boolean>(ONLY_MATCHING_KEY) === true
}

export function setOnlyMatching(deps: Pick<Deps, 'settings'>, value: boolean): boolean {
  deps.settings.setInternal(ONLY_MATCHING_KEY, value)
  return value
}
