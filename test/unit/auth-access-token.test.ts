// Access token verification and its cache: a token verified once is trusted only under the same
// keys and only until its own expiry.
import { describe, expect, it } from 'bun:test'
import { signAccessToken, verifyAccessToken } from '../../src/domain/auth/access-token.ts'

const keys = () => ({ signingKey: crypto.getRandomValues(new Uint8Array(32)) })

describe('verifyAccessToken', () => {
  it('answers the family of a valid token, again from the cache', async () => {
    const own = keys()
    const token = await signAccessToken(own, 'family-1')
    expect(await verifyAccessToken(own, token)).toBe('family-1')
    expect(await verifyAccessToken(own, token)).toBe('family-1')
  })

  it('never lends a token verified under one server key to another', async () => {
    const first = keys()
    const token = await signAccessToken(first, 'family-1')
    expect(await verifyAccessToken(first, token)).toBe('family-1')
    expect(await verifyAccessToken(keys(), token)).toBeNull()
  })

  it('refuses a cached token once its expiry has passed', async () => {
    const own = keys()
    const token = await signAccessToken(own, 'family-1', Math.floor(Date.now() / 1000) + 1)
    expect(await verifyAccessToken(own, token)).toBe('family-1')
    await Bun.sleep(2100)
    expect(await verifyAccessToken(own, token)).toBeNull()
  })
})
