// The host callbacks as the guest prelude finds them under `globalThis.__host`, exactly as
// host-calls.ts installs them (it names its callbacks by `keyof GuestHost`). Types only: nothing
// here reaches the bundle.
import type { LogLevel } from '../protocol.ts'

/** The options of an async host call: arguments copied in, the answer a promise of a copy. */
export type AsyncApplyOptions = {
  readonly arguments: { readonly copy: true }
  readonly result: { readonly promise: true; readonly copy: true }
}

/**
 * An isolated-vm Reference to an async host function, as the guest holds it: called with
 * `apply(receiver, args, options)`; with AsyncApplyOptions it answers a promise of a copy of
 * what the host function resolved to (its rejection reaches the guest as a copied error).
 */
export interface HostReference<Args extends unknown[], Result> {
  apply(receiver: undefined, args: Args, options: AsyncApplyOptions): Promise<Result>
}

/**
 * Bytes from the host: a number under which it parked them for a synchronous `take` (0 when the
 * run ended), or, when small, the bytes themselves as a Latin-1 string (a string that does not
 * fit ends the isolate at its memory limit, which is safe; only bytes are not).
 */
export type Parcel = number | string

/** What the guest's fetch sends: the method upper-cased, headers as pairs, the body as bytes. */
export type FetchWire = { method?: string; headers?: [string, string][]; body?: Uint8Array }

/** The fetch answer without its body, which waits as a parcel. */
export type FetchAnswer = {
  status: number
  headers: [string, string][]
  url: string
  parcel: Parcel
}

export type GuestHost = {
  fetch: HostReference<[url: string, init: FetchWire], FetchAnswer>
  /** An archive entry's bytes, parked; null when the archive has no such entry. */
  entry: HostReference<[name: string], Parcel | null>
  /** A script plugin's library call: the arguments and the answer as JSON text. */
  library: HostReference<[method: string, args: string], string>
  sleep: HostReference<[ms: number], void>
  // The rest are isolated-vm Callbacks: plain synchronous functions in the guest.
  /** The parked bytes, once; null for an unknown number. */
  take(parcel: Parcel): Uint8Array | null
  /** Fire and forget (the host ignores the answer). */
  log(level: LogLevel, message: string): void
  /** A no-op the isolate waits for: every log line sent before it is handled first. */
  drainLog(): void
  /** The WHATWG parse of `input` (after setting `field` to `value`) as JSON parts, '' if none. */
  parseUrl(input: string, base?: string, field?: string, value?: string): string
}

/** The fields of the host's URL answer, in the order URL exposes them. */
export type UrlParts = {
  href: string
  origin: string
  protocol: string
  username: string
  password: string
  host: string
  hostname: string
  port: string
  pathname: string
  search: string
  hash: string
}
