// Identifier formats of the spec: archive (40 hex), Tankoubon (TANK_ + 10 digits), category.
import { fail } from '../errors.ts'

export type ArchiveId = string & { readonly __brand: 'ArchiveId' }
export type TankoubonId = string & { readonly __brand: 'TankoubonId' }
export type CategoryId = string & { readonly __brand: 'CategoryId' }

const ARCHIVE_ID = /^[0-9a-f]{40}$/
const TANKOUBON_ID = /^TANK_[0-9]{10}$/
const CATEGORY_ID = /^SET_[0-9]{10}$/

export const isArchiveId = (v: string): v is ArchiveId => ARCHIVE_ID.test(v)
export const isTankoubonId = (v: string): v is TankoubonId => TANKOUBON_ID.test(v)
export const isCategoryId = (v: string): v is CategoryId => CATEGORY_ID.test(v)

export function parseArchiveId(v: string | undefined): ArchiveId {
  if (!v) throw fail.bad_request('No archive ID specified.')
  if (!isArchiveId(v)) throw fail.bad_request(`Invalid archive ID: ${v.slice(0, 64)}`)
  return v
}

export function parseTankoubonId(v: string | undefined): TankoubonId {
  if (!v || !isTankoubonId(v))
    throw fail.bad_request(`Invalid Tankoubon ID: ${String(v).slice(0, 64)}`)
  return v
}

export function parseCategoryId(v: string | undefined): CategoryId {
  if (!v || !isCategoryId(v))
    throw fail.bad_request(`Invalid category ID: ${String(v).slice(0, 64)}`)
  return v
}

/** `SET_`/`TANK_` + Unix seconds, bumped by one until unused (ids stay unique under bursts). */
export function nextTimestampId(prefix: 'SET_' | 'TANK_', taken: (id: string) => boolean): string {
  let n = Math.floor(Date.now() / 1000)
  while (taken(prefix + String(n).padStart(10, '0'))) n++
  return prefix + String(n).padStart(10, '0')
}
