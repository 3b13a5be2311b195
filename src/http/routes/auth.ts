// Login, logout, refresh, login status; token and session management (session only).
import { Elysia, t } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { login } from '../../domain/auth/login.ts'
import { passwordEnabled } from '../../domain/auth/password.ts'
import { accessCookie } from '../cookies.ts'
import { fail } from '../../errors.ts'

const LoginBody = t.Optional(t.Object({ password: t.Optional(t.String()) }, { additionalProperties: true }))

export const authRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.auth' })
    .use(requestContext(deps))
    .post(
      '/api/login',
      async ({ body, request, ip, set }) => {
        const password = body?.password
        if (typeof password !== 'string') throw fail.bad_request('Missing password.')
        const session = await login(deps, password, {
          ip,
          userAgent: request.headers.get('user-agent'),
        })
        set.headers['set-cookie'] = accessCookie(session.accessToken)
        return { operation: 'login', success: 1 }
      },
      { body: LoginBody },
    )
    .get('/api/login/status', ({ caller }) => ({
      logged_in: !passwordEnabled(deps.settings) || caller.kind === 'session',
      password_enabled: passwordEnabled(deps.settings),
    }))
