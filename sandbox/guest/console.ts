// console: each call one line of the run's log, its arguments joined as a browser would print them
// (strings as they are, errors with their stack, the rest as JSON).
import type { GuestHost } from './host.ts'

function format(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === 'string') return a
      if (a instanceof Error) return a.stack || String(a)
      try {
        const json = JSON.stringify(a)
        return json === undefined ? String(a) : json
      } catch {
        return String(a)
      }
    })
    .join(' ')
}

export function makeConsole(host: GuestHost) {
  return {
    log: (...args: unknown[]) => host.log('log', format(args)),
    info: (...args: unknown[]) => host.log('info', format(args)),
    debug: (...args: unknown[]) => host.log('debug', format(args)),
    warn: (...args: unknown[]) => host.log('warn', format(args)),
    error: (...args: unknown[]) => host.log('error', format(args)),
  }
}
