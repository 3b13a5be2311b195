// A bound on the bytes held at once by work that needs its input whole (a page being resized):
// past the bound callers wait their turn, first come first served, rather than fail. Work larger
// than the whole budget still runs, alone.

export type ByteBudget = {
  /** Runs `work` once `bytes` fit in the budget, and gives them back when it settles. */
  use<T>(bytes: number, work: () => Promise<T>): Promise<T>
  /** Bytes held now (reported in /api/info-style figures and tests). */
  held(): number
}

export function createByteBudget(limit: number): ByteBudget {
  let held = 0
  const waiting: { bytes: number; start: () => void }[] = []
  const fits = (bytes: number) => held === 0 || held + bytes <= limit

  function wake(): void {
    while (waiting[0] && fits(waiting[0].bytes)) {
      const next = waiting.shift()!
      held += next.bytes
      next.start()
    }
  }

  return {
    async use(bytes, work) {
      if (waiting.length === 0 && fits(bytes)) held += bytes
      else await new Promise<void>((start) => waiting.push({ bytes, start }))
      try {
        return await work()
      } finally {
        held -= bytes
        wake()
      }
    },
    held: () => held,
  }
}
