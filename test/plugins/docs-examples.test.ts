// The plugins documentation is code people copy: every TypeScript example in docs/plugins.md that
// exports a hook must type-check against plugins/sdk.d.ts, the way a plugin author's editor checks it.
import { describe, expect, it } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dir, '../..')

describe('docs/plugins.md examples', () => {
  it('type-check against the SDK, one example per plugin type at least', () => {
    const doc = readFileSync(join(root, 'docs/plugins.md'), 'utf8')
    const examples = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((match) => match[1]!)
      .filter((code) => code.includes('export '))
    for (const hook of ['execMetadata', 'execLogin', 'execDownload', 'runScript'])
      expect(
        examples.some(
          (code) =>
            code.includes(`export async function ${hook}`) ||
            code.includes(`export function ${hook}`),
        ),
      ).toBe(true)

    const dir = mkdtempSync(join(tmpdir(), 'tankobun-doc-examples-'))
    try {
      copyFileSync(join(root, 'plugins/sdk.d.ts'), join(dir, 'sdk.d.ts'))
      copyFileSync(join(root, 'plugins/tsconfig.json'), join(dir, 'tsconfig.json'))
      examples.forEach((code, i) => {
        const withSdk = code.includes('reference path')
          ? code
          : `/// <reference path="sdk.d.ts" />\n${code}`
        writeFileSync(join(dir, `example-${i}.ts`), withSdk)
      })
      const tsc = Bun.spawnSync([join(root, 'node_modules/.bin/tsc'), '--noEmit', '-p', dir], {
        stdout: 'pipe',
        stderr: 'pipe',
      })
      expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe('')
      expect(tsc.exitCode).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
