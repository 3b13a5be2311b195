// Access token verification and its cache: a token verified once is trusted only under the same
// keys and only until its own expiry.
import { describe, expect, it } from 'bun:test'
import {
  createVerifiedTokens,
  signAccessToken,
  verifyAccessToken,
} from '../../src/domain/auth/access-token.ts'

/** A server's token check: its own signing key and verified tokens, on `now` when given. */
const server = (now?: () => number) => ({
  sessionKeys: { signingKey: crypto.getRandomValues(new Uint8Array(32)) },
  verifiedTokens: createVerifiedTokens(now),
})

describe('verifyAccessToken', () => {
  it('answers the family of a valid token, again from the cache', async () => {
    const own = server()
    const token = await signAccessToken(own.sessionKeys, 'family-1')
    expect(await verifyAccessToken(own, token)).toBe('family-1')
    expect(await verifyAccessToken(own, token)).toBe('family-1')
  })

  it('never lends a token verified under one server key to another', async () => {
    const first = server()
    const token = await signAccessToken(first.sessionKeys, 'family-1')
    expect(await verifyAccessToken(first, token)).toBe('family-1')
    expect(await verifyAccessToken(server(), token)).toBeNull()
  })

  it('refuses a cached token once its expiry has passed', async () => {
    let now = Date.now()
    const own = server(() => now)
    const token = await signAccessToken(own.sessionKeys, 'family-1', Math.floor(now / 1000) + 1)
    expect(await verifyAccessToken(own, token)).toBe('family-1')
    now += 2100
    expect(await verifyAccessToken(own, token)).toBeNull()
  })
})
