// Secret helpers: constant-time comparison, digests, keyed derivation, Authorization parsing.
import { describe, expect, it, spyOn } from 'bun:test'
import crypto from 'node:crypto'
import { deriveHex, randomHex, safeEqual, sha256Hex } from '../../src/domain/auth/secrets.ts'
import { parseBearer } from '../../src/domain/auth/tokens.ts'

describe('safeEqual', () => {
  it('is true only for identical strings', () => {
    const digest = sha256Hex('secret')
    expect(safeEqual(digest, sha256Hex('secret'))).toBe(true)
    expect(safeEqual(digest, sha256Hex('secreT'))).toBe(false)
    expect(safeEqual(digest, digest.slice(0, -1) + (digest.endsWith('0') ? '1' : '0'))).toBe(false)
  })

  it('answers false for different lengths without throwing', () => {
    expect(safeEqual('abc', 'abcd')).toBe(false)
    expect(safeEqual('', 'a')).toBe(false)
    expect(safeEqual('', '')).toBe(true)
  })

  it('compares multi-byte text by its bytes', () => {
    expect(safeEqual('é', 'é')).toBe(true)
    expect(safeEqual('é', 'e\u0301')).toBe(false)
  })

  it('delegates equal-length comparisons to crypto.timingSafeEqual', () => {
    const spy = spyOn(crypto, 'timingSafeEqual')
    try {
      safeEqual(sha256Hex('a'), sha256Hex('b'))
      expect(spy).toHaveBeenCalledTimes(1)
    } finally {
      spy.mockRestore()
    }
  })
})

describe('digests and derivation', () => {
  it('sha256Hex is the standard SHA-256 in hex', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })

  it('deriveHex depends on key, label and input', () => {
    const key = new Uint8Array(32).fill(7)
    const base = deriveHex(key, 'a', 'x')
    expect(base).toMatch(/^[0-9a-f]{64}$/)
    expect(deriveHex(key, 'a', 'x')).toBe(base)
    expect(deriveHex(key, 'b', 'x')).not.toBe(base)
    expect(deriveHex(key, 'a', 'y')).not.toBe(base)
    expect(deriveHex(new Uint8Array(32).fill(8), 'a', 'x')).not.toBe(base)
  })

  it('randomHex gives fresh values of the asked size', () => {
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/)
    expect(randomHex(16)).not.toBe(randomHex(16))
  })
})

describe('parseBearer', () => {
  const token = 'tkb_' + 'ab12'.repeat(16)

  it('accepts the raw token and its base64 (LANraragi clients)', () => {
    expect(parseBearer(`Bearer ${token}`)).toBe(token)
    expect(parseBearer(`bearer ${token}`)).toBe(token)
    expect(parseBearer(`Bearer ${Buffer.from(token).toString('base64')}`)).toBe(token)
  })

  it('refuses other schemes, malformed and truncated tokens', () => {
    expect(parseBearer(`Basic ${token}`)).toBeNull()
    expect(parseBearer(token)).toBeNull()
    expect(parseBearer(`Bearer ${token.slice(0, -1)}`)).toBeNull()
    expect(parseBearer(`Bearer ${token.toUpperCase()}`)).toBeNull()
    expect(parseBearer(`Bearer ${Buffer.from('tkb_short').toString('base64')}`)).toBeNull()
    expect(parseBearer('Bearer ')).toBeNull()
  })
})
