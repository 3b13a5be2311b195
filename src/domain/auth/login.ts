// Password login: verifies the admin password and opens a session family.
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { passwordEnabled, verifyAdminPassword } from './password.ts'
import { createSessionFamily, signAccessToken } from './sessions.ts'

export async function login(
  deps: Deps,
  password: string,
  meta: { ip: string | null; userAgent: string | null },
): Promise<{ familyId: string; accessToken: string }> {
  if (passwordEnabled(deps.settings) && !(await verifyAdminPassword(deps.settings, password))) {
    throw fail.unauthorized('Wrong password.')
  }
  const familyId = createSessionFamily(deps.db, meta)
  return { familyId, accessToken: await signAccessToken(deps.sessionKeys, familyId) }
}
