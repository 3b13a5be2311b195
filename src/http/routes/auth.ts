// Login, logout, refresh and login status (open); API token and session management (session only).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import type { Caller } from '../../domain/auth/caller.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { login } from '../../domain/auth/login.ts'
import { passwordEnabled } from '../../domain/auth/password.ts'
import { familyOfSignedToken, signAccessToken } from '../../domain/auth/access-token.ts'
import { redeemRefreshToken } from '../../domain/auth/refresh.ts'
import { listSessions, revokeListedSession, revokeSession } from '../../domain/auth/sessions.ts'
import {
  createApiToken,
  deleteApiToken,
  listApiTokens,
  renameApiToken,
} from '../../domain/auth/tokens.ts'
import {
  ACCESS_COOKIE,
  REFRESH_COOKIE,
  clearedSessionCookies,
  readCookie,
  sessionCookies,
} from '../cookies.ts'
import { AuthModel, toWireSession, toWireToken } from '../models/auth.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const authPolicy = {
  'POST /api/login': { op: 'login', access: 'open' },
  'GET /api/login/status': { op: 'login_status', access: 'open' },
  'POST /api/logout': { op: 'logout', access: 'open' },
  'POST /api/token/refresh': { op: 'token_refresh', access: 'open' },
  'GET /api/tokens': { op: 'list_tokens', access: 'session' },
  'POST /api/tokens': { op: 'create_token', access: 'session' },
  'PATCH /api/tokens/:id': { op: 'rename_token', access: 'session' },
  'DELETE /api/tokens/:id': { op: 'delete_token', access: 'session' },
  'GET /api/sessions': { op: 'list_sessions', access: 'session' },
  'DELETE /api/sessions/:family_id': { op: 'revoke_session', access: 'session' },
} satisfies PolicyRows

const familyOf = (caller: Caller) => (caller.kind === 'session' ? caller.familyId : null)

export const authRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.auth' })
    .use(requestContext(deps))
    .post(
      '/api/login',
      async ({ body, request, ip, set }) => {
        const grant = await login(deps, body.password, {
          ip,
          userAgent: request.headers.get('user-agent'),
        })
        set.headers['set-cookie'] = sessionCookies(request, grant)
        return ok()
      },
      { body: AuthModel.login },
    )
    .get('/api/login/status', ({ caller }) => {
      const enabled = passwordEnabled(deps.settings)
      return { logged_in: !enabled || caller.kind === 'session', password_enabled: enabled }
    })
    .post('/api/logout', async ({ request, set }) => {
      const access = readCookie(request, ACCESS_COOKIE)
      const familyId = access ? await familyOfSignedToken(deps.auth.sessionKeys, access) : null
      if (familyId) revokeSession(deps, familyId)
      set.headers['set-cookie'] = clearedSessionCookies(request)
      return ok()
    })
    .post('/api/token/refresh', async ({ request, ip, set }) => {
      // Cleared first: every refusal below must also drop the dead cookies from the browser.
      set.headers['set-cookie'] = clearedSessionCookies(request)
      const redeemed = redeemRefreshToken(deps, readCookie(request, REFRESH_COOKIE), ip)
      const accessToken = await signAccessToken(deps.auth.sessionKeys, redeemed.familyId)
      set.headers['set-cookie'] = sessionCookies(request, {
        accessToken,
        refreshToken: redeemed.refreshToken,
      })
      return ok()
    })
    .get('/api/tokens', () => listApiTokens(deps).map(toWireToken))
    .post(
      '/api/tokens',
      ({ body }) => {
        const { token, secret } = createApiToken(deps, {
          name: body.name,
          role: body.role,
          expiresInSecs: body.expires_in_secs,
        })
        return ok({ data: { ...toWireToken(token), token: secret } })
      },
      { body: AuthModel.createToken },
    )
    .patch(
      '/api/tokens/:id',
      ({ params, body }) => ok({ data: toWireToken(renameApiToken(deps, params.id, body.name)) }),
      { params: AuthModel.tokenParams, body: AuthModel.renameToken },
    )
    .delete(
      '/api/tokens/:id',
      ({ params }) => {
        deleteApiToken(deps, params.id)
        return ok({ id: params.id })
      },
      { params: AuthModel.tokenParams },
    )
    .get('/api/sessions', ({ caller }) =>
      listSessions(deps).map((s) => toWireSession(s, familyOf(caller))),
    )
    .delete(
      '/api/sessions/:family_id',
      ({ params, caller, request, set }) => {
        revokeListedSession(deps, params.family_id)
        if (params.family_id === familyOf(caller)) {
          set.headers['set-cookie'] = clearedSessionCookies(request)
        }
        return ok({ family_id: params.family_id })
      },
      { params: AuthModel.sessionParams },
    )
