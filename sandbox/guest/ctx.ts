// The ctx a plugin entry gets: the host's JSON plus entry(name) for archive entries, and the
// library for script plugins (the host marks their ctx with library: true).
import { takeBytes, type CallHost } from './call-host.ts'
import type { GuestHost } from './host.ts'

// A script plugin's grant of the library: each method crosses as JSON text both ways, and the
// host checks every argument.
const LIBRARY_METHODS = [
  'search',
  'archives',
  'categories',
  'createCategory',
  'addToCategory',
  'deleteCategory',
]

function makeLibrary(host: GuestHost, callHost: CallHost) {
  const library: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const method of LIBRARY_METHODS) {
    library[method] = async (...args) => {
      const json = await callHost(host.library, [method, JSON.stringify(args)])
      return JSON.parse(json)
    }
  }
  return Object.freeze(library)
}

/** `__makeCtx(json)` for isolate.ts's entry call. */
export function makeCtxBuilder(host: GuestHost, callHost: CallHost) {
  return function makeCtx(json: string) {
    const ctx = (JSON.parse(json) || {}) as Record<string, unknown>
    ctx.entry = async (name: unknown) => takeBytes(host, await callHost(host.entry, [String(name)]))
    if (ctx.library === true) ctx.library = makeLibrary(host, callHost)
    else delete ctx.library
    return ctx
  }
}
