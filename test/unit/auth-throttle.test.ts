// Login throttling: MAX_LOGIN_FAILURES attempts per address, then a LOGIN_LOCK_MS lockout.
import { describe, expect, it } from 'bun:test'
import {
  createLoginThrottle,
  LOGIN_LOCK_MS,
  MAX_LOGIN_FAILURES,
  type LoginThrottle,
} from '../../src/domain/auth/login-throttle.ts'

function clock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

/** Makes `times` attempts and returns what begin() answered to each (0 = may proceed). */
function attempts(throttle: LoginThrottle, address: string, times: number): number[] {
  return Array.from({ length: times }, () => throttle.begin(address))
}

describe('login throttle', () => {
  it('allows MAX_LOGIN_FAILURES attempts, then locks for LOGIN_LOCK_MS', () => {
    const throttle = createLoginThrottle(clock().now)
    expect(attempts(throttle, '1.2.3.4', MAX_LOGIN_FAILURES)).toEqual(
      Array(MAX_LOGIN_FAILURES).fill(0),
    )
    expect(throttle.begin('1.2.3.4')).toBe(LOGIN_LOCK_MS)
  })

  it('locks one address only', () => {
    const throttle = createLoginThrottle(clock().now)
    attempts(throttle, '1.2.3.4', MAX_LOGIN_FAILURES + 1)
    expect(throttle.begin('1.2.3.4')).toBeGreaterThan(0)
    expect(throttle.begin('5.6.7.8')).toBe(0)
  })

  it('keeps the lock for LOGIN_LOCK_MS, then forgives', () => {
    const c = clock()
    const throttle = createLoginThrottle(c.now)
    attempts(throttle, 'a', MAX_LOGIN_FAILURES + 1)
    c.advance(LOGIN_LOCK_MS - 1)
    expect(throttle.begin('a')).toBe(1)
    c.advance(2)
    expect(throttle.begin('a')).toBe(0)
  })

  it('is cleared by a successful login', () => {
    const throttle = createLoginThrottle(clock().now)
    attempts(throttle, 'a', MAX_LOGIN_FAILURES)
    throttle.succeed('a')
    expect(attempts(throttle, 'a', MAX_LOGIN_FAILURES)).toEqual(Array(MAX_LOGIN_FAILURES).fill(0))
  })

  it('forgets failures older than the window', () => {
    const c = clock()
    const throttle = createLoginThrottle(c.now)
    attempts(throttle, 'a', MAX_LOGIN_FAILURES)
    c.advance(LOGIN_LOCK_MS + 1)
    expect(throttle.begin('a')).toBe(0)
  })

  it('counts callers without a known address together', () => {
    const throttle = createLoginThrottle(clock().now)
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) expect(throttle.begin(null)).toBe(0)
    expect(throttle.begin(null)).toBeGreaterThan(0)
  })
})
