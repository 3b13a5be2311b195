// A plugin's error names the plugin's own file and the line of its TypeScript source, never the
// sandbox's internals: a throw under type annotations, a throw after an await, a syntax error.
import { afterAll, describe, expect, it } from 'bun:test'
import { createSandboxHost, PluginRunError } from '../../src/plugins/host.ts'

const host = createSandboxHost({
  async fetch() {
    throw new Error('no fetch in these tests')
  },
  async entry() {
    return null
  },
})
afterAll(() => host.close())

const ctx = { args: {}, oneshot: null }
async function failure(source: string): Promise<string> {
  try {
    await host.run({ source, entry: 'runScript', ctx, filename: 'metadata/foo.ts' })
  } catch (err) {
    expect(err).toBeInstanceOf(PluginRunError)
    return (err as Error).message
  }
  throw new Error('the run should have failed')
}

const TYPED_HEADER = `// a plugin with types above its throw
type Tags = {
  artist: string
  series: string[]
}
interface Options {
  lang: string
}
`

describe('plugin error locations', () => {
  it('names the file and the TypeScript line of a throw', async () => {
    const message = await failure(`${TYPED_HEADER}
export function runScript(ctx: { args: Options }): Tags {
  const tags: Tags | undefined = undefined as unknown as Tags | undefined
  return { artist: tags!.artist, series: [] }
}
`)
    expect(message).toStartWith('metadata/foo.ts:12: TypeError: ')
    expect(message).not.toContain('sandbox/')
    expect(message).not.toContain('isolate')
  })

  it('names the line of a throw after an await, in a helper', async () => {
    const message = await failure(`${TYPED_HEADER}
function check(value: number): number {
  if (value > 1) throw new RangeError('too big: ' + value)
  return value
}

export async function runScript(): Promise<number> {
  await Promise.resolve()
  return check(2)
}
`)
    expect(message).toBe('metadata/foo.ts:11: RangeError: too big: 2')
  })

  it("runs Bun's output when the types cannot be blanked (an enum)", async () => {
    const out = await host.run({
      source: 'enum Kind { A = 1, B }\nexport function runScript(): number { return Kind.B }',
      entry: 'runScript',
      ctx,
      filename: 'metadata/foo.ts',
    })
    expect(out.result).toBe(2)
  })

  it('names the line of a syntax error', async () => {
    const message = await failure(`${TYPED_HEADER}
export function runScript(): number {
  const broken: number = (;
  return broken
}
`)
    expect(message).toStartWith('metadata/foo.ts:11: ')
    expect(message).toContain('SyntaxError')
  })
})
