// The guest prelude is written in sandbox/guest/ and bundled into the committed
// sandbox/guest.generated.ts (the sandbox runs from source under Node, which cannot bundle).
// This test bundles it again in memory and fails when the committed file is stale; and, through
// the real sandbox, checks the bundle left the globals as plugins know them: their names (a
// bundler renames a declaration that would shadow a global), not enumerable, no path in the code.
import { afterAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import {
  BUILD_GUEST_COMMAND,
  GUEST_GENERATED,
  generateGuestModule,
} from '../../scripts/build-guest.ts'
import { GUEST_PRELUDE } from '../../sandbox/guest.generated.ts'
import { createSandboxHost } from '../../src/plugins/host.ts'

const host = createSandboxHost({
  async fetch() {
    throw new Error('no fetch in these tests')
  },
})
afterAll(() => host.close())

const GLOBALS = [
  'ArrayBuffer',
  'TextEncoder',
  'TextDecoder',
  'atob',
  'btoa',
  'URL',
  'URLSearchParams',
  'Headers',
  'console',
  'fetch',
  'sleep',
  'html',
]

describe('guest prelude', () => {
  it('is the committed bundle of sandbox/guest/', async () => {
    const fresh = await generateGuestModule()
    const committed = readFileSync(GUEST_GENERATED, 'utf8')
    expect(committed === fresh ? 'current' : `stale: run ${BUILD_GUEST_COMMAND}`).toBe('current')
  })

  it('names no path, maps no source and runs strict', () => {
    expect(GUEST_PRELUDE).toStartWith("'use strict';\n")
    expect(GUEST_PRELUDE).not.toContain('sandbox/')
    expect(GUEST_PRELUDE).not.toContain('.ts')
    expect(GUEST_PRELUDE).not.toContain('sourceMappingURL')
    expect(GUEST_PRELUDE).not.toContain(process.cwd())
  })

  it('defines the globals under their own names, not enumerable, and takes __host away', async () => {
    const out = await host.run({
      source: `export function runScript() {
        const names = ${JSON.stringify(GLOBALS)}
        const seen = {}
        for (const name of names) {
          const d = Object.getOwnPropertyDescriptor(globalThis, name)
          seen[name] = {
            name: typeof d.value === 'function' ? d.value.name : null,
            enumerable: d.enumerable,
            writable: d.writable,
          }
        }
        return {
          seen,
          host: typeof __host,
          enumerable: Object.keys(globalThis).filter((key) => names.includes(key)),
          strict: (function () { return this })() === undefined,
          methods: [fetch.name, sleep.name, console.log.name, new URL('http://a/').constructor.name],
          arrayBuffer: new ArrayBuffer(1).constructor === ArrayBuffer,
        }
      }`,
      entry: 'runScript',
      ctx: { args: {}, oneshot: null },
    })
    const functions = new Set(['console', 'html'])
    expect(out.result).toEqual({
      seen: Object.fromEntries(
        GLOBALS.map((name) => [
          name,
          { name: functions.has(name) ? null : name, enumerable: false, writable: true },
        ]),
      ),
      host: 'undefined',
      enumerable: [],
      strict: true,
      methods: ['fetch', 'sleep', 'log', 'URL'],
      arrayBuffer: true,
    })
  })
})
