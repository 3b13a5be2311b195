// The HMAC key that signs access tokens; made once per instance and kept in the settings table.
import type { SettingsStore } from '../settings.ts'

export function loadSigningKey(settings: SettingsStore): Uint8Array {
  let encoded = settings.getInternal<string>('jwt_key')
  if (!encoded) {
    encoded = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
    settings.setInternal('jwt_key', encoded)
  }
  return new Uint8Array(Buffer.from(encoded, 'base64'))
}
