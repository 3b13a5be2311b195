// Structured JSON-line logging, quiet (warn and up) unless TANKOBUN_LOG_LEVEL says otherwise.
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
export type LogLevel = keyof typeof LEVELS

let threshold: number = LEVELS.warn
let sink: (line: string) => void = (line) => process.stderr.write(line + '\n')

export function setLogLevel(level: LogLevel): void {
  threshold = LEVELS[level]
}

/** Tests capture output to prove secrets never reach the log. */
export function setLogSink(write: (line: string) => void): void {
  sink = write
}

function emit(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  if (LEVELS[level] < threshold) return
  sink(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }))
}

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

export function createLogger(scope: string): Logger {
  return {
    debug: (msg, f) => emit('debug', msg, { scope, ...f }),
    info: (msg, f) => emit('info', msg, { scope, ...f }),
    warn: (msg, f) => emit('warn', msg, { scope, ...f }),
    error: (msg, f) => emit('error', msg, { scope, ...f }),
  }
}
