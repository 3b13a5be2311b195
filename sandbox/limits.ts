// Limits both sides of the host-call boundary enforce: host-calls.ts in this process and the guest
// prelude (guest/) inside the isolate, which is bundled from source and so may import nothing
// that needs Node. Keep this file free of imports.

/** Host calls (fetch, entry, library, sleep) a run may have waiting at once. */
export const MAX_HOST_CALLS_IN_FLIGHT = 32
