// The host callbacks of one run (or one batch item), as the guest prelude takes them: bounded in
// number, their bytes handed over synchronously, and everything they hold freed when the run ends.
//
// Two isolated-vm behaviours shape this file:
// - An async Reference's result is copied into the isolate when its promise settles, on a path
//   where a failed ArrayBuffer allocation (the isolate near its memory limit) is a C++ exception
//   nobody catches: the whole sandbox process aborts. So async answers carry no bytes. A body is
//   parked here under a number and the prelude takes it at once with a synchronous Callback, whose
//   failed allocation is an ordinary RangeError in the guest.
// - Every pending host call holds memory in this process (a promise, a timer, a parked answer)
//   that the isolate's memory limit does not see. So a run has at most MAX_HOST_CALLS_IN_FLIGHT.
import ivm from 'isolated-vm'
import type { FetchAnswer, GuestHost, Parcel } from './guest/host.ts'
import { MAX_HOST_CALLS_IN_FLIGHT } from './limits.ts'
import type { LogLevel } from './protocol.ts'

/** Longest a plugin's sleep() waits in one call; the run's wall clock bounds the total. */
const MAX_SLEEP_MS = 10_000
/** Bytes handed over inside an answer, as a string, rather than parked for a take. */
const INLINE_BYTES = 64 * 1024
/** Fetches of one run sent to the server at once; more wait their turn. */
export const MAX_FETCHES_AT_ONCE = 6
/** The largest request body a plugin may send: forms and JSON, not uploads. */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024

export type GuestFetchInit = { method?: string; headers?: [string, string][]; body?: Uint8Array }
export type GuestFetchResponse = {
  status: number
  headers: [string, string][]
  url: string
  body: Uint8Array
}

/** What a run may ask of the outside; main.ts forwards each call to the server. */
export type RunBridge = {
  fetch(url: string, init: GuestFetchInit): Promise<GuestFetchResponse>
  entry(name: string): Promise<Uint8Array | null>
  /** A script plugin's `ctx.library.<method>(...)`: arguments and answer as JSON text. */
  library(method: string, args: string): Promise<string>
  log(level: LogLevel, message: string): void
}

export type HostCalls = {
  /** By the name the prelude takes each under (`__host.<name>`, typed in guest/host.ts). */
  callbacks: [keyof GuestHost, ivm.Reference | ivm.Callback][]
  /** Ends the run's calls: timers cleared, parked bodies dropped, late answers ignored. */
  release(): void
}

/** An error as the guest sees it: the message only, never this process's stack or paths. */
function guestError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err)
  const error = new Error(message)
  error.stack = `Error: ${message}`
  return error
}

/** A copy the isolate can take whole: a Buffer view over a shared pool would bring the pool. */
function plainBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes)
}

const URL_FIELDS = ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port']
const URL_SETTABLE = new Set([...URL_FIELDS, 'pathname', 'search', 'hash'])

/** The WHATWG parser for the guest's URL class: the parts as JSON, '' when not a URL. */
export function parseUrl(input: string, base?: string, field?: string, value?: string): string {
  try {
    const url = new URL(String(input), base === undefined ? undefined : String(base))
    if (field !== undefined && URL_SETTABLE.has(field))
      (url as unknown as Record<string, string>)[field] = String(value)
    const { href, origin, protocol, username, password, host, hostname, port } = url
    const { pathname, search, hash } = url
    return JSON.stringify({
      href,
      origin,
      protocol,
      username,
      password,
      host,
      hostname,
      port,
      pathname,
      search,
      hash,
    })
  } catch {
    return ''
  }
}

/**
 * The callbacks of one run. `hold` lets a batch keep an abandoned item's answers from ever
 * reaching its code (they never settle).
 */
export function createHostCalls(
  bridge: RunBridge,
  hold: <T>(answer: Promise<T>) => Promise<T> = (answer) => answer,
): HostCalls {
  let ended = false
  let inFlight = 0
  let nextParcel = 1
  const parcels = new Map<number, Uint8Array>()
  const timers = new Set<ReturnType<typeof setTimeout>>()

  /** An async host call, counted while it waits; its failure reaches the guest as a message. */
  const bounded =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      if (ended) throw guestError('the run has ended')
      if (inFlight >= MAX_HOST_CALLS_IN_FLIGHT)
        throw guestError(
          `too many host calls in flight (${MAX_HOST_CALLS_IN_FLIGHT}): await some before starting more`,
        )
      inFlight++
      try {
        return await hold(call(...args))
      } catch (err) {
        throw guestError(err)
      } finally {
        inFlight--
      }
    }

  // Fetches of one run reach the server MAX_FETCHES_AT_ONCE at a time, the rest wait here in
  // order (still counted in flight): a plugin firing thousands keeps the server's outbound client
  // as busy as a browser's page would, not 32 requests deep.
  let fetching = 0
  const fetchTurns: (() => void)[] = []
  const fetchSlot = async (): Promise<() => void> => {
    if (fetching >= MAX_FETCHES_AT_ONCE) await new Promise<void>((go) => fetchTurns.push(go))
    fetching++
    return () => {
      fetching--
      fetchTurns.shift()?.()
    }
  }

  /**
   * Parks bytes for the prelude's synchronous take (the number crosses), or hands small ones over
   * as a Latin-1 string in the answer itself: a take is a hop to this thread and back, which a
   * batch item waits for behind the other items' messages (Run Automatically reads one small
   * ComicInfo.xml per archive).
   */
  const park = (bytes: Uint8Array): Parcel => {
    if (ended) return 0
    if (bytes.byteLength <= INLINE_BYTES)
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
    const id = nextParcel++
    parcels.set(id, plainBytes(bytes))
    return id
  }

  const callbacks: HostCalls['callbacks'] = [
    [
      'fetch',
      new ivm.Reference(
        bounded(async (url: unknown, init: unknown): Promise<FetchAnswer> => {
          const wire = (init ?? {}) as GuestFetchInit
          const body = wire.body instanceof Uint8Array ? wire.body : undefined
          if (body && body.byteLength > MAX_REQUEST_BODY_BYTES)
            throw new Error(
              `request body is larger than ${MAX_REQUEST_BODY_BYTES / 1024 / 1024} MB`,
            )
          const done = await fetchSlot()
          let response: GuestFetchResponse
          try {
            if (ended) throw new Error('the run has ended')
            response = await bridge.fetch(String(url), {
              method: typeof wire.method === 'string' ? wire.method : undefined,
              headers: Array.isArray(wire.headers) ? wire.headers : undefined,
              body,
            })
          } finally {
            done()
          }
          const { status, headers, url: finalUrl } = response
          return { status, headers, url: finalUrl, parcel: park(response.body) }
        }),
      ),
    ],
    [
      'entry',
      new ivm.Reference(
        bounded(async (name: unknown): Promise<Parcel | null> => {
          const bytes = await bridge.entry(String(name))
          return bytes ? park(bytes) : null
        }),
      ),
    ],
    [
      'library',
      new ivm.Reference(
        bounded((method: unknown, args: unknown) => bridge.library(String(method), String(args))),
      ),
    ],
    [
      'sleep',
      new ivm.Reference(
        bounded(
          (ms: unknown) =>
            new Promise<void>((resolve) => {
              const wait = Math.max(0, Math.min(Number(ms) || 0, MAX_SLEEP_MS))
              const timer = setTimeout(() => {
                timers.delete(timer)
                resolve()
              }, wait)
              timer.unref()
              timers.add(timer)
            }),
        ),
      ),
    ],
    // The parked bytes, copied into the isolate by this synchronous call: a failed allocation is
    // the guest's own catchable RangeError. Taken once; an unknown number answers null.
    [
      'take',
      new ivm.Callback((id: unknown) => {
        const bytes = parcels.get(Number(id))
        if (!bytes) return null
        parcels.delete(Number(id))
        return bytes
      }),
    ],
    [
      'log',
      new ivm.Callback((level: LogLevel, message: string) => bridge.log(level, String(message)), {
        ignored: true,
      }),
    ],
    // A synchronous no-op, called once the entry has ended: the isolate waits for it, and the
    // log lines sent before it (fire-and-forget) are handled first, so none of them arrives
    // after the run's result (under load one sometimes did, and was lost).
    ['drainLog', new ivm.Callback(() => undefined)],
    ['parseUrl', new ivm.Callback(parseUrl)],
  ]

  return {
    callbacks,
    release() {
      ended = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      parcels.clear()
    },
  }
}
