// Login, API keys, sessions and their throttles.
import type { Area } from './area.ts'
import { authPolicy, authRoutes } from '../http/routes/auth.ts'
import { createLoginThrottle, type LoginThrottle } from '../domain/auth/login-throttle.ts'
import { loadSigningKey } from '../domain/auth/signing-key.ts'
import type { SessionKeys } from '../domain/auth/sessions.ts'
import { createVerifiedTokens, type VerifiedTokens } from '../domain/auth/access-token.ts'

export type AuthState = {
  loginThrottle: LoginThrottle
  sessionKeys: SessionKeys
  /** Access tokens already verified under sessionKeys: later requests check only their expiry. */
  verifiedTokens: VerifiedTokens
}

export const authArea: Area<'auth', AuthState> = {
  name: 'auth',
  state: ({ settings }) => ({
    loginThrottle: createLoginThrottle(),
    sessionKeys: { signingKey: loadSigningKey(settings) },
    verifiedTokens: createVerifiedTokens(),
  }),
  routes: [{ routes: authRoutes, policy: authPolicy }],
}
