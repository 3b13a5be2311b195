// Response headers every answer carries. Pages and thumbnails are bytes from user archives:
// `nosniff` keeps a browser from reading one as HTML or script whatever its bytes look like.
import { Elysia } from 'elysia'

export function securityHeaders() {
  return new Elysia({ name: 'security-headers' }).onRequest(({ set }) => {
    set.headers['x-content-type-options'] = 'nosniff'
  })
}
