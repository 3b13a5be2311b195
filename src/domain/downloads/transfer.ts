// Moving a download's bytes: each resource the plugin named streams from the outbound client
// (SSRF guard, domain rules and their byte-rate buckets, manual redirects) straight into a staged
// file, never held in memory, with the job's downloaded_bytes / total_bytes kept current. Several
// resources can be bundled into one CBZ.
// Snake_case kept: `filename_hint` is the download plugin API's field of a resource.
import { open, readFile } from 'node:fs/promises'
import type { Deps } from '../../deps.ts'
import { writeZip } from '../../archive/zip-writer.ts'
import { AppError, fail } from '../../errors.ts'
import type { LoginSession } from '../../plugins/manifest.ts'
import { withLoginSession } from '../../plugins/login-session.ts'
import type { DownloadTask } from './runtime.ts'
import {
  createFileHasher,
  newStagedPath,
  removeStagedDownload,
  type FileHashes,
} from './staging.ts'

/** One resource as a download plugin answers it. */
export type Resource = {
  url: string
  method?: string
  headers?: Record<string, string>
  filename_hint?: string
}

/** One archive's bytes on disk, the name they were offered under, and their hashes if known. */
export type Fetched = { path: string; nameHint: string; hashes?: FileHashes }

/** Largest single resource: a disk bound, not a memory one (the body streams to the file). */
export const MAX_DOWNLOAD_BYTES = 64 * 1024 ** 3
/** A transfer that receives nothing this long is cut (a stalled server keeps a slot forever). */
export const STALL_MS = 60_000
/** The whole of one resource's exchange. */
const RESOURCE_TIMEOUT_MS = 24 * 60 * 60 * 1000
/** Transfer fields are reported at most this often (each report is an event). */
const REPORT_EVERY_MS = 100

/** The last path segment of a URL, decoded; '' when it has none. */
export function nameFromUrl(url: string): string {
  try {
    const path = new URL(url).pathname
    const last = path.slice(path.lastIndexOf('/') + 1)
    try {
      return decodeURIComponent(last)
    } catch {
      return last
    }
  } catch {
    return ''
  }
}

/** `filename` (or RFC 5987 `filename*`) of a Content-Disposition header. */
export function nameFromDisposition(header: string | null): string {
  if (!header) return ''
  const star = header.match(/filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/)
  if (star?.[1])
    try {
      return decodeURIComponent(star[1].trim())
    } catch {
      // Fall through to the plain parameter.
    }
  return (
    header
      .match(/filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/)
      ?.slice(1)
      .find(Boolean)
      ?.trim() ?? ''
  )
}

type Totals = { done: number; announced: number | undefined; allKnown: boolean }

/**
 * Streams each resource into its own staged file, in order. The job's downloaded_bytes counts
 * every resource; total_bytes is the sum of the announced lengths, reported once every resource
 * so far announced one (absent otherwise, never 0). A failure or a stop removes what was written.
 */
export async function fetchResources(
  deps: Pick<Deps, 'config' | 'outbound'>,
  resources: Resource[],
  task: DownloadTask,
  signal: AbortSignal,
  login: LoginSession | undefined,
): Promise<Fetched[]> {
  const fetched: Fetched[] = []
  const totals: Totals = { done: 0, announced: 0, allKnown: true }
  try {
    for (const resource of resources) {
      const rule = deps.outbound.ruleFor(resource.url)
      if (rule?.bytesPerSec)
        task.transfer({
          rateLimitBytesPerSec: rule.bytesPerSec,
          rateLimitMatchedPattern: rule.pattern,
        })
      fetched.push(await fetchOne(deps, resource, task, signal, login, totals))
    }
    return fetched
  } catch (error) {
    for (const file of fetched) await removeStagedDownload(deps, file.path)
    throw error
  }
}

async function fetchOne(
  deps: Pick<Deps, 'config' | 'outbound'>,
  resource: Resource,
  task: DownloadTask,
  signal: AbortSignal,
  login: LoginSession | undefined,
  totals: Totals,
): Promise<Fetched> {
  const path = newStagedPath(deps)
  const handle = await open(path, 'wx')
  const stall = new AbortController()
  let stallTimer = setTimeout(() => stall.abort(), STALL_MS)
  let received = 0
  let announced: number | undefined
  let disposition: string | null = null
  let lastReport = 0
  // Hashed as it is written: the ingest needs the SHA-1 and the id without reading it again.
  const hasher = createFileHasher()
  const report = (force = false) => {
    const now = Date.now()
    if (!force && now - lastReport < REPORT_EVERY_MS) return
    lastReport = now
    const total =
      totals.allKnown && announced !== undefined ? totals.announced! + announced : undefined
    task.transfer({
      downloadedBytes: totals.done + received,
      ...(total !== undefined && total > 0 ? { totalBytes: total } : {}),
    })
    if (total) task.progress(Math.min(1, (totals.done + received) / total))
  }
  let failure: unknown
  try {
    const headers = Object.entries(resource.headers ?? {})
    const init = withLoginSession(resource.url, { headers }, login)
    await deps.outbound.fetchOutbound(
      resource.url,
      {
        method: resource.method ?? 'GET',
        headers: init.headers,
        signal: AbortSignal.any([signal, stall.signal]),
      },
      {
        maxResponseBytes: MAX_DOWNLOAD_BYTES,
        timeoutMs: RESOURCE_TIMEOUT_MS,
        onResponse(status, responseHeaders) {
          if (status < 200 || status > 299)
            throw fail.bad_request(
              `Download failed: HTTP ${status} from ${new URL(resource.url).host}.`,
            )
          disposition = responseHeaders.get('content-disposition')
        },
        async sink(chunk) {
          hasher.update(chunk)
          for (let at = 0; at < chunk.byteLength;)
            at += (await handle.write(chunk, at)).bytesWritten
        },
        onProgress(bytes, total) {
          clearTimeout(stallTimer)
          stallTimer = setTimeout(() => stall.abort(), STALL_MS)
          received = bytes
          announced = total
          report()
        },
      },
    )
    if (announced !== undefined && received < announced)
      throw fail.bad_request(
        `Download failed: the server sent ${received} of the ${announced} bytes it announced.`,
      )
  } catch (error) {
    failure =
      stall.signal.aborted && !signal.aborted
        ? fail.bad_request(`Download failed: nothing received for ${STALL_MS / 1000} s.`)
        : error
  } finally {
    clearTimeout(stallTimer)
    await handle.close().catch((error: unknown) => {
      failure ??= error
    })
  }
  if (failure) {
    await removeStagedDownload(deps, path)
    throw failure instanceof AppError || signal.aborted
      ? failure
      : fail.bad_request(
          `Download failed after ${received}${announced === undefined ? '' : ` of ${announced}`} ` +
            // Bun appends advice on its fetch options to a network error: not for users.
            `bytes: ${((failure as Error).message ?? String(failure)).replace(/ For more information.*$/s, '')}`,
        )
  }
  if (announced === undefined) totals.allKnown = false
  else totals.announced = (totals.announced ?? 0) + announced
  totals.done += received
  // This resource now counts in the totals.
  received = 0
  announced = totals.allKnown ? 0 : undefined
  report(true)
  const nameHint =
    resource.filename_hint?.trim() || nameFromDisposition(disposition) || nameFromUrl(resource.url)
  return { path, nameHint, hashes: hasher.digest() }
}

/** Image extensions kept on bundled pages; anything else is named `.bin` inside the zip. */
const PAGE_EXTENSION = /\.(jpe?g|png|gif|webp|avif|jxl|bmp|tiff?)$/i

/**
 * One CBZ of every fetched resource, in order, named 001.<ext>, 002.<ext>, ... so the page order
 * is the plugin's. The parts are removed.
 */
export async function bundleAsCbz(deps: Pick<Deps, 'config'>, parts: Fetched[]): Promise<string> {
  const width = Math.max(3, String(parts.length).length)
  const entries = []
  for (const [i, part] of parts.entries()) {
    const ext = part.nameHint.match(PAGE_EXTENSION)?.[0].toLowerCase() ?? '.bin'
    entries.push({
      name: `${String(i + 1).padStart(width, '0')}${ext}`,
      data: await readFile(part.path),
    })
  }
  const path = newStagedPath(deps)
  const handle = await open(path, 'wx')
  try {
    await handle.writeFile(writeZip(entries))
  } catch (error) {
    await handle.close()
    await removeStagedDownload(deps, path)
    throw error
  }
  await handle.close()
  for (const part of parts) await removeStagedDownload(deps, part.path)
  return path
}
