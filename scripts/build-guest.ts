// `npm run build:guest`: bundles the guest prelude (sandbox/guest/prelude.ts and what it imports)
// into one script and writes it to sandbox/guest.generated.ts as the GUEST_PRELUDE string, which
// sandbox/isolate.ts evaluates in every plugin context. The file is committed because the sandbox
// runs from source under Node in development and tests; scripts/build.ts regenerates it, and
// test/sandbox/guest-generated.test.ts fails when it is stale.
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')
export const GUEST_ENTRY = join(ROOT, 'sandbox', 'guest', 'prelude.ts')
export const GUEST_GENERATED = join(ROOT, 'sandbox', 'guest.generated.ts')
export const BUILD_GUEST_COMMAND = 'npm run build:guest'

/** The prelude as one classic script, strict like the modules it came from. */
async function bundlePrelude(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [GUEST_ENTRY],
    root: ROOT,
    format: 'iife',
    target: 'browser',
    // Readable: a guest error's `<isolated-vm>:LINE` frame points at code one can find here.
    minify: false,
    // No map and no map comment: nothing of this machine's paths may reach a plugin's stack.
    sourcemap: 'none',
  })
  if (!result.success) throw new AggregateError(result.logs, 'the guest prelude does not bundle')
  const [output] = result.outputs
  if (!output || result.outputs.length !== 1) throw new Error('expected one guest bundle')
  // The bundler marks each module with a `// sandbox/guest/<file>.ts` line: dropped, so the script
  // names no path at all.
  const code = (await output.text()).replace(/\n\n? *\/\/ sandbox\/[\w/.-]+\.ts\n/g, '\n')
  return `'use strict';\n${code}`
}

/** A template literal holding `text` exactly. */
const templateLiteral = (text: string): string =>
  '`' + text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`'

/** The text of sandbox/guest.generated.ts for the guest sources as they are now. */
export async function generateGuestModule(): Promise<string> {
  const prelude = await bundlePrelude()
  return [
    `// Generated from sandbox/guest/ by scripts/build-guest.ts (${BUILD_GUEST_COMMAND}): do not edit.`,
    '// The guest prelude: the script isolate.ts runs in every plugin context before the plugin.',
    `export const GUEST_PRELUDE = ${templateLiteral(prelude)}`,
    '',
  ].join('\n')
}

/** Writes sandbox/guest.generated.ts; answers whether its text changed. */
export async function writeGuestModule(): Promise<boolean> {
  const text = await generateGuestModule()
  const file = Bun.file(GUEST_GENERATED)
  if ((await file.exists()) && (await file.text()) === text) return false
  await Bun.write(GUEST_GENERATED, text)
  return true
}

if (import.meta.main) {
  const changed = await writeGuestModule()
  process.stdout.write(`sandbox/guest.generated.ts ${changed ? 'written' : 'up to date'}\n`)
}
