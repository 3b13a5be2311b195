// The server's lifecycle: each part that starts pushes how to stop it, and stopping runs the list in
// reverse, so a part is stopped before what it depends on (jobs before the workers they use, the
// database last).
import { createLogger } from './log.ts'

const log = createLogger('lifecycle')

export type StopList = {
  /** Adds the stop of a part that has just started. */
  push(stop: () => unknown): void
  /**
   * Runs the stops in reverse order, each awaited before the next. One that fails is logged and
   * the rest still run; the first failure is then rethrown. Later calls share the first run.
   */
  stopAll(): Promise<void>
}

export function createStopList(): StopList {
  const stops: (() => unknown)[] = []
  let stopping: Promise<void> | null = null

  async function runAll(): Promise<void> {
    let failure: { error: unknown } | undefined
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop()
      } catch (error) {
        log.error('a part failed to stop', {
          error: error instanceof Error ? error.message : String(error),
        })
        failure ??= { error }
      }
    }
    if (failure) throw failure.error
  }

  return {
    push(stop) {
      stops.push(stop)
    },
    stopAll: () => (stopping ??= runAll()),
  }
}
