// Login, API keys, sessions and their throttles.
import type { Area } from './area.ts'
import { authPolicy, authRoutes } from '../http/routes/auth.ts'
import { createLoginThrottle, type LoginThrottle } from '../domain/auth/login-throttle.ts'
import { loadSigningKey } from '../domain/auth/signing-key.ts'
import type { SessionKeys } from '../domain/auth/sessions.ts'

export type AuthState = {
  loginThrottle: LoginThrottle
  sessionKeys: SessionKeys
}

export const authArea: Area<'auth', AuthState> = {
  name: 'auth',
  state: ({ settings }) => ({
    loginThrottle: createLoginThrottle(),
    sessionKeys: { signingKey: loadSigningKey(settings) },
  }),
  routes: [{ routes: authRoutes, policy: authPolicy }],
}
