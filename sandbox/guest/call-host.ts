// How the guest calls the host: async calls through isolated-vm References, bounded in number,
// their failures turned into the guest's own errors.
import { MAX_HOST_CALLS_IN_FLIGHT } from '../limits.ts'
import type { AsyncApplyOptions, GuestHost, HostReference, Parcel } from './host.ts'

// isolated-vm reads these options as ordinary objects: without a prototype, nothing a plugin
// puts on Object.prototype can change how its calls cross.
const plain = <T extends object>(fields: T): Readonly<T> =>
  Object.freeze(Object.assign(Object.create(null) as object, fields))

const asyncCall: AsyncApplyOptions = plain({
  arguments: plain({ copy: true as const }),
  result: plain({ promise: true as const, copy: true as const }),
})

export type CallHost = <Args extends unknown[], Result>(
  fn: HostReference<Args, Result>,
  args: Args,
) => Promise<Result>

/**
 * A host call's failure as the plugin sees it: the message, with the plugin's own frames.
 * The host enforces the bound on calls in flight too; counting here spares it the crossing.
 */
export function createCallHost(): CallHost {
  let inFlight = 0
  return async (fn, args) => {
    if (inFlight >= MAX_HOST_CALLS_IN_FLIGHT)
      throw new Error(
        'too many host calls in flight (' +
          MAX_HOST_CALLS_IN_FLIGHT +
          '): await some before starting more',
      )
    inFlight++
    try {
      return await fn.apply(undefined, args, asyncCall)
    } catch (err) {
      throw new Error(
        err != null && typeof (err as { message?: unknown }).message === 'string'
          ? (err as { message: string }).message
          : String(err),
      )
    } finally {
      inFlight--
    }
  }
}

/** Bytes from the host: small ones inline, the others copied in by a synchronous call (see
 * host-calls.ts). */
export function takeBytes(host: GuestHost, parcel: Parcel | null): Uint8Array | null {
  if (typeof parcel === 'string') {
    const bytes = new Uint8Array(parcel.length)
    for (let i = 0; i < parcel.length; i++) bytes[i] = parcel.charCodeAt(i)
    return bytes
  }
  return parcel ? host.take(parcel) : null
}
