// The JavaScript installed in every plugin context before the plugin (bundled into one script by
// scripts/build-guest.ts): the only globals a plugin gets (fetch, console, sleep, URL,
// URLSearchParams, Headers, TextEncoder, TextDecoder, atob, btoa, html, and the ctx builder). It
// reads the host callbacks from `__host`, keeps them in closures and deletes the global, so plugin
// code can reach the host only through these wrappers.
import { atob, btoa } from './base64.ts'
import { createCallHost } from './call-host.ts'
import { makeConsole } from './console.ts'
import { makeCtxBuilder } from './ctx.ts'
import { Headers, makeFetch } from './fetch.ts'
import type { GuestHost } from './host.ts'
import { html } from './html.ts'
import { guardMemory } from './memory-guards.ts'
import { TextDecoder, TextEncoder } from './text.ts'
import { makeUrl, URLSearchParams } from './url.ts'

// `__host` is set by isolate.ts (installHost) just before this script runs.
const G = globalThis as unknown as Record<string, unknown>
const host = G.__host as GuestHost
delete G.__host

/** A global as the built-in ones are: writable, configurable, not enumerable. */
const define = (name: string, value: unknown): void => {
  Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false })
}

const ArrayBufferOfPlugins = guardMemory(G)
const callHost = createCallHost()
const URL = makeUrl(host)
const sleep = (ms: unknown): Promise<void> => callHost(host.sleep, [Number(ms) || 0])

define('ArrayBuffer', ArrayBufferOfPlugins)
define('TextEncoder', TextEncoder)
define('TextDecoder', TextDecoder)
define('atob', atob)
define('btoa', btoa)
define('URL', URL)
define('URLSearchParams', URLSearchParams)
define('Headers', Headers)
define('console', makeConsole(host))
define('fetch', makeFetch(host, callHost, URL))
define('sleep', sleep)
Object.defineProperty(G, '__makeCtx', { value: makeCtxBuilder(host, callHost), configurable: true })
// For the entry's caller (isolate.ts): called once the entry has ended, so every log line is in.
Object.defineProperty(G, '__drainLog', { value: () => host.drainLog(), configurable: true })
define('html', html)
