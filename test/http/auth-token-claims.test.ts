// Access tokens are accepted only with every claim the server puts in them: a token signed with
// the right key but without `exp`, or with another algorithm, issuer or audience, is refused.
import { describe, expect, it } from 'bun:test'
import { SignJWT } from 'jose'
import { startTestServer, type TestServer } from '../helpers/server.ts'

async function familyOf(app: TestServer): Promise<string> {
  const cookie = await app.login()
  const access = cookie.split('tankobun_access=')[1]!.split(';')[0]!
  return JSON.parse(atob(access.split('.')[1]!)).fid as string
}

type Claims = { iss?: string; aud?: string; exp?: boolean; alg?: 'HS256' | 'HS512' }

async function sign(app: TestServer, fid: string, claims: Claims): Promise<string> {
  let jwt = new SignJWT({ fid })
    .setProtectedHeader({ alg: claims.alg ?? 'HS256', typ: 'JWT' })
    .setIssuedAt()
  if (claims.iss) jwt = jwt.setIssuer(claims.iss)
  if (claims.aud) jwt = jwt.setAudience(claims.aud)
  if (claims.exp !== false) jwt = jwt.setExpirationTime('1h')
  return jwt.sign(app.deps.auth.sessionKeys.signingKey)
}

const status = async (app: TestServer, token: string) =>
  (await app.req('/api/tokens', { cookie: `tankobun_access=${token}` })).status

describe('access token claims', () => {
  it('accepts a token with the issuer, audience and expiry the server sets', async () => {
    await using app = await startTestServer()
    const fid = await familyOf(app)
    expect(await status(app, await sign(app, fid, { iss: 'tankobun', aud: 'tankobun-api' }))).toBe(
      200,
    )
  })

  it('refuses a validly signed token without exp', async () => {
    await using app = await startTestServer()
    const fid = await familyOf(app)
    const token = await sign(app, fid, { iss: 'tankobun', aud: 'tankobun-api', exp: false })
    expect(await status(app, token)).toBe(401)
  })

  it('refuses a validly signed token with a missing or wrong issuer or audience', async () => {
    await using app = await startTestServer()
    const fid = await familyOf(app)
    expect(await status(app, await sign(app, fid, {}))).toBe(401)
    expect(await status(app, await sign(app, fid, { iss: 'tankobun', aud: 'other' }))).toBe(401)
    expect(await status(app, await sign(app, fid, { iss: 'other', aud: 'tankobun-api' }))).toBe(401)
  })

  it('refuses another HMAC algorithm over the same key', async () => {
    await using app = await startTestServer()
    const fid = await familyOf(app)
    const token = await sign(app, fid, { iss: 'tankobun', aud: 'tankobun-api', alg: 'HS512' })
    expect(await status(app, token)).toBe(401)
  })
})
