// Set-Cookie values for the session cookies (API-NOTES.md: names, paths, lifetimes).
import { ACCESS_COOKIE, ACCESS_TTL_SECS } from '../domain/auth/sessions.ts'

export function accessCookie(token: string): string {
  return `${ACCESS_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${ACCESS_TTL_SECS}`
}

export function clearedCookie(name: string, path: string): string {
  return `${name}=; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=0`
}
