// A page the wizard reads for the user (a login page, a gallery): fetched through the one
// outbound client under the plugins' rules (no private targets unless allowed, size and time
// caps), since the URL is the user's to choose.
import type { Deps } from '../../deps.ts'
import { AppError, fail } from '../../errors.ts'

/** A page is markup; past this it is not a page the wizard needs whole. */
const MAX_PAGE_BYTES = 2 * 1024 * 1024
const PAGE_TIMEOUT_MS = 20_000

export type FetchedPage = { url: string; status: number; headers: Headers; markup: string }

/** The page at `url`; a refused or failed fetch is a 400 naming why. */
export async function fetchPage(deps: Pick<Deps, 'outbound'>, url: string): Promise<FetchedPage> {
  try {
    const response = await deps.outbound.fetchOutbound(
      url,
      { headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' } },
      { maxResponseBytes: MAX_PAGE_BYTES, timeoutMs: PAGE_TIMEOUT_MS },
    )
    return {
      url: response.url,
      status: response.status,
      headers: response.headers,
      markup: new TextDecoder().decode(response.body),
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    const reason = typeof error.extra?.reason === 'string' ? ` (${error.extra.reason})` : ''
    throw fail.bad_request(`The page could not be fetched${reason}: ${error.message}`)
  }
}
