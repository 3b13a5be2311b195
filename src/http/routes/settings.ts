// Instance settings (admin) and the admin password (session only).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { WRITE_ONLY_SETTINGS, type Settings } from '../../domain/settings.ts'
import { changeAdminPassword } from '../../domain/auth/login.ts'
import { fail } from '../../errors.ts'
import { requestContext } from '../context.ts'
import { sessionCookies } from '../cookies.ts'
import { assertCorsOrigins } from '../cors.ts'
import { ok } from '../envelope.ts'
import { AuthModel } from '../models/auth.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const settingsPolicy = {
  'GET /api/settings': { op: 'get_settings', access: 'admin' },
  'PUT /api/settings': { op: 'update_settings', access: 'admin' },
  'PUT /api/settings/password': { op: 'set_password', access: 'session' },
} satisfies PolicyRows

/** Every public setting; write-only ones (the language-model key) only say whether they are set. */
function publicSettings(settings: Settings): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings }
  for (const key of WRITE_ONLY_SETTINGS) delete out[key]
  out.llm_api_key_set = Boolean(settings.llm_api_key)
  return out
}

export const settingsRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.settings' })
    .use(requestContext(deps))
    .get('/api/settings', () => publicSettings(deps.settings.all()))
    .put(
      '/api/settings',
      ({ body }) => {
        // A text body passes the record schema as a string; only an object names settings.
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw fail.bad_request('The body must be an object of settings.')
        }
        if ('cors_origins' in body) assertCorsOrigins(body.cors_origins)
        return publicSettings(deps.settings.update(body))
      },
      { body: AuthModel.settingsPatch },
    )
    .put(
      '/api/settings/password',
      async ({ body, caller, request, ip, set }) => {
        const familyId = caller.kind === 'session' ? caller.familyId : null
        const grant = await changeAdminPassword(
          deps,
          body.password,
          { familyId },
          {
            ip,
            userAgent: request.headers.get('user-agent'),
          },
        )
        if (grant) set.headers['set-cookie'] = sessionCookies(request, grant)
        return ok({ password_enabled: body.password !== '' })
      },
      { body: AuthModel.setPassword },
    )
