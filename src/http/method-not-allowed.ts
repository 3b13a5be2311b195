// A request whose path is a route but whose method is not answers 405 with an `Allow` header
// (RFC 9110), not the 404 the router gives for any miss.
import { Elysia } from 'elysia'
import { envJson } from './envelope.ts'

type RegisteredRoute = { method: string; path: string }
type PathMethods = { pattern: RegExp; methods: Set<string> }

function compile(routes: readonly RegisteredRoute[]): PathMethods[] {
  const byPath = new Map<string, Set<string>>()
  for (const { method, path } of routes) {
    const methods = byPath.get(path) ?? new Set<string>()
    methods.add(method.toUpperCase())
    if (method.toUpperCase() === 'GET') methods.add('HEAD')
    byPath.set(path, methods)
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(
      '^' +
        path
          .split('/')
          .map((part) =>
            part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('/') +
        '$',
    ),
    methods,
  }))
}

/** The methods some route answers at `path`, sorted; empty when no route has that path. */
export function allowedMethods(compiled: readonly PathMethods[], path: string): string[] {
  const allowed = new Set<string>()
  for (const { pattern, methods } of compiled)
    if (pattern.test(path)) for (const method of methods) allowed.add(method)
  return [...allowed].sort()
}

/** `routes` is read on the first miss, once every route file has been registered. */
export function methodNotAllowed(routes: () => readonly RegisteredRoute[]) {
  let compiled: PathMethods[] | undefined
  return new Elysia({ name: 'method-not-allowed' }).onError(
    { as: 'global' },
    ({ code, request }) => {
      if (code !== 'NOT_FOUND') return
      compiled ??= compile(routes())
      const path = decodeURI(new URL(request.url).pathname)
      const allow = allowedMethods(compiled, path)
      if (allow.length === 0 || allow.includes(request.method)) return
      return envJson(
        405,
        { operation: '', success: 0, error: `Method ${request.method} is not allowed here.` },
        { allow: allow.join(', ') },
      )
    },
  )
}
