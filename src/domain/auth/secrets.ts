// Secret material of credentials: random secrets, digests, keyed derivation and the constant-time
// comparison every credential check goes through.
import nodeCrypto from 'node:crypto'

export function randomHex(bytes: number): string {
  return nodeCrypto.randomBytes(bytes).toString('hex')
}

/** SHA-256 hex: how token and refresh secrets are stored (a secret is never stored itself). */
export function sha256Hex(text: string): string {
  return nodeCrypto.createHash('sha256').update(text).digest('hex')
}

/** HMAC-SHA-256 hex under a server key; `label` separates the uses of one key. */
export function deriveHex(key: Uint8Array, label: string, input: string): string {
  return nodeCrypto.createHmac('sha256', key).update(label).update('\0').update(input).digest('hex')
}

/**
 * Constant-time string equality. Callers compare digests of a fixed length, so an early answer on
 * a length mismatch reveals nothing; equal lengths are compared without short-circuiting.
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  if (left.length !== right.length) return false
  return nodeCrypto.timingSafeEqual(left, right)
}
