// What `npm run plugin -- check` reports besides the manifest: the file's syntax errors from Bun's
// parser (the one the server runs) and the type checker's errors against the shipped SDK, each as
// `file:line:col: message`, the way editors and terminals link them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { BUILTIN_PLUGINS_DIR } from '../assets.ts'
import { findSyntaxErrors } from '../plugins/syntax-check.ts'

/**
 * The syntax errors of a plugin source, each `shown:line:col: SyntaxError: message` followed by
 * the line and a caret; empty when it parses.
 */
export function syntaxErrors(source: string, shown: string): string[] {
  return findSyntaxErrors(source).map(({ message, line, column, lineText }) => {
    if (!line) return `${shown}: SyntaxError: ${message}`
    return (
      `${shown}:${line}:${column}: SyntaxError: ${message}` +
      (lineText ? `\n  ${lineText}\n  ${' '.repeat(column - 1)}^` : '')
    )
  })
}

/**
 * Type-checks one plugin file against the SDK the project ships, with the compiler it ships.
 * `noResolve`: the file's own `/// <reference path="sdk.d.ts" />` (for its editor) is not
 * followed, so a copy beside it does not clash with the shipped SDK (54 duplicate identifiers)
 * and a missing one is not "File not found". Answers the errors as `shown:line:col: ...`.
 */
export async function typeCheck(file: string, shown: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tankobun-plugin-check-'))
  try {
    const config = {
      extends: join(BUILTIN_PLUGINS_DIR, 'tsconfig.json'),
      compilerOptions: { noResolve: true },
      include: [file, join(BUILTIN_PLUGINS_DIR, 'sdk.d.ts')],
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config))
    const tsc = join(dirname(BUILTIN_PLUGINS_DIR), 'node_modules', '.bin', 'tsc')
    const proc = Bun.spawn(
      [tsc, '--noEmit', '--pretty', 'false', '-p', join(dir, 'tsconfig.json')],
      {
        cwd: dir,
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    const out = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text())
    await proc.exited
    if (proc.exitCode === 0) return []
    // tsc writes `path(line,col): error TS...`, the path relative to its working folder.
    return out
      .trim()
      .split('\n')
      .map((line) => {
        const at = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line)
        if (!at) return line
        const [, path, row, col, rest] = at
        const name = path!.endsWith(file.split(/[\\/]/).pop()!) ? shown : path
        return `${name}:${row}:${col}: ${rest}`
      })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
