// Per-domain limits of outbound requests: which rule a host falls under, its shared concurrency
// slots and its shared byte-rate token bucket.
import { fail } from '../errors.ts'
import { hostMatches } from './address-guard.ts'

/** One rule: `pattern` is an exact host, `*.domain` (subdomains only) or `*` (every host). */
export type DomainRule = {
  pattern: string
  /** Requests to matching hosts in flight at once; absent = no limit. */
  maxConcurrency?: number
  /** Response bytes per second, shared by every request the rule matches; absent = unlimited. */
  bytesPerSec?: number
}

/** What a JobStatus shows: `rate_limit_matched_pattern` and `rate_limit_bytes_per_sec`. */
export type RuleMatch = { pattern: string; bytesPerSec?: number; maxConcurrency?: number }

/** The most specific rule for `host`: an exact host, then the longest `*.domain`, then `*`. */
export function matchRule(rules: readonly DomainRule[], host: string): DomainRule | undefined {
  const exact = rules.find((r) => !r.pattern.startsWith('*') && hostMatches(r.pattern, host))
  if (exact) return exact
  const wildcard = rules
    .filter((r) => r.pattern.startsWith('*.') && hostMatches(r.pattern, host))
    .sort((a, b) => b.pattern.length - a.pattern.length)[0]
  return wildcard ?? rules.find((r) => r.pattern === '*')
}

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0

/**
 * Domain rules as stored in plugin options (`[{pattern, max_concurrency?, bytes_per_sec?}]`) to
 * DomainRule; throws a bad_request AppError naming the first bad entry.
 */
export function parseDomainRules(wire: unknown): DomainRule[] {
  if (!Array.isArray(wire)) throw fail.bad_request('domain rules must be an array')
  const seen = new Set<string>()
  return wire.map((entry: unknown, i) => {
    const e = (entry ?? {}) as Record<string, unknown>
    const pattern = typeof e.pattern === 'string' ? e.pattern.trim().toLowerCase() : ''
    const validPattern =
      pattern === '*' ||
      /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(pattern) ||
      /^[0-9a-f:.]+$/.test(pattern)
    if (!validPattern)
      throw fail.bad_request(`domain rule ${i}: pattern must be a host, *.domain or *`)
    if (seen.has(pattern)) throw fail.bad_request(`domain rule ${i}: ${pattern} is listed twice`)
    seen.add(pattern)
    const rule: DomainRule = { pattern }
    for (const [wireName, key] of [
      ['max_concurrency', 'maxConcurrency'],
      ['bytes_per_sec', 'bytesPerSec'],
    ] as const) {
      const value = e[wireName]
      if (value === undefined || value === null) continue
      if (!positive(value))
        throw fail.bad_request(`domain rule ${i}: ${wireName} must be a positive integer`)
      rule[key] = value
    }
    return rule
  })
}

/** A rule's slot for one request: pace its bytes with `take`, give the slot back with `release`. */
export type RuleLease = {
  match: RuleMatch | undefined
  take(bytes: number, signal?: AbortSignal): Promise<void>
  release(): void
}

// Burst the bucket allows after an idle spell; short so a few seconds' transfer stays near the rate.
const BURST_MS = 50

/** The time the byte buckets pace by; tests pass one that moves only when waited on. */
export type PaceClock = {
  /** Milliseconds, as performance.now(). */
  now(): number
  /** Resolves `ms` later on this clock; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

const WALL_CLOCK: PaceClock = { now: () => performance.now(), sleep }

type RuleState = {
  rule: DomainRule
  inFlight: number
  waiting: { grant: () => void }[]
  // Time (clock.now) by which every byte taken so far is paid for at the rule's rate.
  paidUntil: number
}

/** The live limits of a rule set; `setRules` swaps the rules and keeps the state of kept patterns. */
export type DomainLimits = {
  setRules(rules: readonly DomainRule[]): void
  match(host: string): RuleMatch | undefined
  acquire(host: string, signal?: AbortSignal): Promise<RuleLease>
}

function toMatch(rule: DomainRule): RuleMatch {
  return {
    pattern: rule.pattern,
    bytesPerSec: rule.bytesPerSec,
    maxConcurrency: rule.maxConcurrency,
  }
}

export function createDomainLimits(
  initial: readonly DomainRule[] = [],
  clock: PaceClock = WALL_CLOCK,
): DomainLimits {
  let rules: readonly DomainRule[] = []
  const states = new Map<string, RuleState>()

  const setRules = (next: readonly DomainRule[]) => {
    rules = next
    for (const rule of next) {
      const state = states.get(rule.pattern)
      if (state) {
        state.rule = rule
        pump(state)
      } else states.set(rule.pattern, { rule, inFlight: 0, waiting: [], paidUntil: 0 })
    }
  }

  const pump = (state: RuleState) => {
    const max = state.rule.maxConcurrency ?? Infinity
    while (state.waiting.length > 0 && state.inFlight < max) {
      state.inFlight++
      state.waiting.shift()!.grant()
    }
  }

  const take = async (state: RuleState, bytes: number, signal?: AbortSignal) => {
    const rate = state.rule.bytesPerSec
    if (!rate || bytes <= 0) return
    const now = clock.now()
    state.paidUntil = Math.max(state.paidUntil, now - BURST_MS) + (bytes * 1000) / rate
    const wait = state.paidUntil - now
    if (wait > 0) await clock.sleep(wait, signal)
  }

  setRules(initial)
  return {
    setRules,
    match(host) {
      const rule = matchRule(rules, host)
      return rule && toMatch(rule)
    },
    async acquire(host, signal) {
      const rule = matchRule(rules, host)
      const state = rule && states.get(rule.pattern)
      if (!rule || !state) return { match: undefined, take: async () => {}, release: () => {} }
      const max = state.rule.maxConcurrency ?? Infinity
      if (state.inFlight < max && state.waiting.length === 0) state.inFlight++
      else
        await new Promise<void>((resolve, reject) => {
          const waiter = {
            grant: () => {
              signal?.removeEventListener('abort', onAbort)
              resolve()
            },
          }
          const onAbort = () => {
            state.waiting.splice(state.waiting.indexOf(waiter), 1)
            reject(signal!.reason)
          }
          signal?.throwIfAborted()
          signal?.addEventListener('abort', onAbort, { once: true })
          state.waiting.push(waiter)
        })
      let released = false
      return {
        match: toMatch(state.rule),
        take: (bytes, s) => take(state, bytes, s),
        release() {
          if (released) return
          released = true
          state.inFlight--
          pump(state)
        },
      }
    },
  }
}
