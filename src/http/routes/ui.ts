// The web UI: index.html at `/`, the bundle's hashed assets under `/ui/`. Assets never change
// under a name (the name holds a hash), so browsers keep them a year; index.html is revalidated
// on every load so a new build reaches them. Served from memory (src/ui-bundle.ts), gzip when
// accepted. Without a UI (a binary built without it) the root points at the server info, which
// LANraragi clients probing the base URL need as a 2xx.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { etagMatches } from '../conditional.ts'
import { fail } from '../../errors.ts'
import { uiBundle } from '../../ui-bundle.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const uiPolicy = {
  'GET /': { op: 'root', access: 'open' },
  'GET /ui/*': { op: 'ui_asset', access: 'open' },
} satisfies PolicyRows

const acceptsGzip = (request: Request) =>
  /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')

export const uiRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.ui' })
    .use(requestContext(deps))
    .get('/', async ({ redirect }) => {
      const bundle = await uiBundle()
      if (!bundle) return redirect('/api/info', 302)
      return new Response(bundle.index, {
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
      })
    })
    .get('/ui/*', async ({ params, request }) => {
      const asset = (await uiBundle())?.assets.get(params['*'])
      if (!asset) throw fail.not_found('No such file in the web UI.')
      const headers: Record<string, string> = {
        'content-type': asset.type,
        'cache-control': 'public, max-age=31536000, immutable',
        etag: asset.etag,
        vary: 'accept-encoding',
      }
      if (etagMatches(request.headers.get('if-none-match'), asset.etag))
        return new Response(null, { status: 304, headers })
      if (!acceptsGzip(request)) return new Response(asset.body, { headers })
      return new Response(asset.gzip, { headers: { ...headers, 'content-encoding': 'gzip' } })
    })
