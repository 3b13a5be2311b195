// Wire shapes of Tankoubons (plain and full), their request bodies, and page parameters.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import type { FullTankoubon } from '../../domain/collections/tankoubons.ts'
import type { Tankoubon } from '../../domain/collections/tank-record.ts'
import { fail } from '../../errors.ts'
import { toWireArchive } from './archives.ts'

export const TankoubonModel = {
  params: t.Object({ id: t.String() }),
  memberParams: t.Object({ id: t.String(), archive: t.String() }),
  pageParams: t.Object({ id: t.String(), page: t.String() }),
  listQuery: t.Object({ page: t.Optional(t.String()) }),
  getQuery: t.Object({
    page: t.Optional(t.String()),
    include_full_data: t.Optional(t.String()),
  }),
  thumbnailQuery: t.Object({ no_fallback: t.Optional(t.String()), page: t.Optional(t.String()) }),
  /** Create or rename: form-urlencoded or multipart (JSON accepted too). */
  createBody: t.Optional(
    t.Object(
      { name: t.Optional(t.String()), tankid: t.Optional(t.String()) },
      { additionalProperties: true },
    ),
  ),
  /** Only the keys sent change; no body at all changes nothing (LANraragi). */
  updateBody: t.Optional(
    t.Object({
      archives: t.Optional(t.Array(t.String())),
      metadata: t.Optional(
        t.Object({
          name: t.Optional(t.String()),
          summary: t.Optional(t.String()),
          tags: t.Optional(t.String()),
          append: t.Optional(t.Boolean()),
        }),
      ),
    }),
  ),
}

/**
 * Transform hook of the update route, before validation: Elysia coerces a string or null into
 * the optional `metadata` object, so a malformed `metadata` would pass as "change nothing".
 */
export function checkTankUpdateBody({ body }: { body: unknown }): void {
  if (typeof body !== 'object' || body === null || !('metadata' in body)) return
  const metadata = (body as { metadata: unknown }).metadata
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw fail.bad_request('Invalid metadata: Expected object')
}

/** A 1-based page in a path or query: a positive integer, anything else is a 400. */
export function parsePageNumber(raw: string | undefined, what = 'page'): number {
  if (raw === undefined) throw fail.bad_request(`Missing ${what} (a positive integer is expected).`)
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) {
    const shown = raw.slice(0, 32)
    throw fail.bad_request(`Invalid ${what}: ${shown} (a positive integer is expected).`)
  }
  return Number(raw)
}

/** A 0-based list page; -1 = everything. */
export function parseListPage(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback
  if (!/^(-1|[0-9]{1,9})$/.test(raw)) throw fail.bad_request(`Invalid page: ${raw.slice(0, 32)}`)
  return Number(raw)
}

export function toWireTankoubon(tank: Tankoubon) {
  return {
    id: tank.id,
    name: tank.name,
    summary: tank.summary,
    tags: tank.tags,
    progress: tank.progress,
    archives: tank.archives,
  }
}

export function toWireFullTankoubon(tank: FullTankoubon) {
  return { ...toWireTankoubon(tank), full_data: tank.fullData.map((row) => toWireArchive(row)) }
}

/** GET /api/tankoubons (LANraragi's contract), keys in the order the answer writes them. */
export const TankoubonListResponse = t.Object({
  filtered: Type.Integer(),
  result: t.Array(
    t.Object({
      id: t.String(),
      name: t.String(),
      summary: t.String(),
      tags: t.String(),
      progress: Type.Integer(),
      archives: t.Array(t.String()),
    }),
  ),
  total: Type.Integer(),
})
