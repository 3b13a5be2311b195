// Wire shapes of the download queue (docs/downloads.md): the item, the add / edit / answer bodies,
// and the stream's events.
import { t } from 'elysia'
import type {
  DownloadItemRow,
  QueueEntryInput,
  QueueItemEdit,
} from '../../domain/downloads/queue.ts'
import { ParamsBody } from '../params.ts'

/** Items one add may carry. */
const MAX_ITEMS_PER_ADD = 1000
const MAX_IDS = 10_000

export const DownloadModel = {
  idParams: t.Object({ id: t.String({ maxLength: 64 }) }),
  /** Entries are checked one by one (toQueueEntry, then `addToQueue`): a bad one is rejected alone. */
  addBody: t.Object({ items: t.Array(t.Unknown(), { maxItems: MAX_ITEMS_PER_ADD }) }),
  /** PATCH: omitted fields keep their stored value. */
  editBody: t.Object(
    {
      url: t.Optional(t.String({ maxLength: 8192 })),
      plugin_namespace: t.Optional(t.String({ maxLength: 300 })),
      title: t.Optional(t.Union([t.Null(), t.String({ maxLength: 1000 })])),
      category: t.Optional(t.Union([t.Null(), t.String({ maxLength: 64 })])),
      auto_fetch_metadata: t.Optional(t.Boolean()),
    },
    { additionalProperties: false },
  ),
  idsBody: t.Object({ ids: t.Array(t.String({ maxLength: 64 }), { maxItems: MAX_IDS }) }),
  confirmOlderBody: t.Object({ proceed: t.Boolean() }),
  /** Pages of the old archive kept in a patch of the new one (compare-patch.ts's wire names). */
  overwriteBody: t.Optional(
    t.Object({
      insertions: t.Optional(
        t.Array(
          t.Object({
            a_index: t.Optional(t.Integer({ minimum: 0 })),
            a_filename: t.Optional(t.String({ maxLength: 1024 })),
            b_index: t.Optional(t.Integer({ minimum: 0 })),
            b_filename: t.Optional(t.String({ maxLength: 1024 })),
            after_filename: t.Optional(t.String({ maxLength: 1024 })),
            before_filename: t.Optional(t.String({ maxLength: 1024 })),
          }),
          { maxItems: 10_000 },
        ),
      ),
    }),
  ),
  renameBody: t.Object({ filename: t.String({ maxLength: 1024 }) }),
  downloadUrlQuery: t.Object({ url: t.Optional(t.String()), catid: t.Optional(t.String()) }),
  /** The same params in a form (or JSON) body; the query's win (http/params.ts, requestParam). */
  downloadUrlBody: ParamsBody,
}

/** An entry of a bulk add as sent (url, plugin_namespace, category?, auto_fetch_metadata?). */
export function toQueueEntry(raw: unknown): QueueEntryInput {
  const entry = (
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}
  ) as Record<string, unknown>
  const optional = (value: unknown, type: string) => value === undefined || typeof value === type
  if (
    typeof entry.url !== 'string' ||
    typeof entry.plugin_namespace !== 'string' ||
    !optional(entry.category, 'string') ||
    !optional(entry.auto_fetch_metadata, 'boolean')
  ) {
    const url = (raw as { url?: unknown } | null)?.url
    return { invalid: true, url: typeof url === 'string' ? url : '' }
  }
  return {
    url: entry.url,
    pluginNamespace: entry.plugin_namespace,
    category: entry.category as string | undefined,
    autoFetchMetadata: entry.auto_fetch_metadata as boolean | undefined,
  }
}

/** PATCH's body: only the fields sent. */
export function toQueueItemEdit(body: typeof DownloadModel.editBody.static): QueueItemEdit {
  return {
    ...(body.url === undefined ? {} : { url: body.url }),
    ...(body.plugin_namespace === undefined ? {} : { pluginNamespace: body.plugin_namespace }),
    ...(body.title === undefined ? {} : { title: body.title }),
    ...(body.category === undefined ? {} : { category: body.category }),
    ...(body.auto_fetch_metadata === undefined
      ? {}
      : { autoFetchMetadata: body.auto_fetch_metadata }),
  }
}

/** A queue item on the wire; the staged file's server path is never shown. */
/** `https://user:pass@host/` as `https://***@host/`: credentials in a URL are the admin's. */
export function hideUrlCredentials(url: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url)) return url
  try {
    const parsed = new URL(url)
    if (!parsed.username && !parsed.password) return url
    parsed.username = '***'
    parsed.password = ''
    return parsed.href
  } catch {
    return url
  }
}

/**
 * An item as the API answers it. `credentials`: whether the reader may see a URL's user:pass@
 * (admins); other readers of the queue (guest tokens, visitors) get it hidden.
 */
export function toWireDownloadItem(row: DownloadItemRow, credentials: boolean) {
  return {
    id: row.id,
    url: credentials ? row.url : hideUrlCredentials(row.url),
    plugin_namespace: row.pluginNamespace,
    state: row.state,
    job_id: row.jobId,
    error: row.error,
    title: row.title,
    category: row.category,
    auto_fetch_metadata: row.autoFetchMetadata,
    archive_ids: JSON.parse(row.archiveIds) as string[],
    existing_id: row.existingId,
    revision_confirmed: row.revisionConfirmed,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    ...(row.pendingFilenameConflict
      ? {
          pending_filename_conflict: JSON.parse(row.pendingFilenameConflict) as {
            existing_id: string | null
            filename: string
          },
        }
      : {}),
    ...(row.pendingRevisionConfirmation
      ? {
          pending_revision_confirmation: JSON.parse(row.pendingRevisionConfirmation) as {
            newer_archive_id: string
          },
        }
      : {}),
  }
}
