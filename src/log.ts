// Structured JSON-line logging, quiet (warn and up) unless TANKOBUN_LOG_LEVEL says otherwise.
// Lines written while a request is handled carry its `request_id` (http/request-id.ts).
import { AsyncLocalStorage } from 'node:async_hooks'

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

const context = new AsyncLocalStorage<Readonly<Record<string, unknown>>>()

/**
 * Fields every line logged from here on in the current asynchronous context carries (what the
 * code it calls and awaits logs too): the request id, set as a request comes in.
 */
export function enterLogContext(fields: Readonly<Record<string, unknown>>): void {
  context.enterWith(fields)
}

/** The fields of the current context, if any. */
export function logContext(): Readonly<Record<string, unknown>> | undefined {
  return context.getStore()
}

function emit(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  if (LEVELS[level] < threshold) return
  const line = { time: new Date().toISOString(), level, msg, ...context.getStore(), ...fields }
  sink(JSON.stringify(line))
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
