// Does a plugin file export the hook its type runs? Read from the module's static exports by
// Bun's parser (nothing runs), at upload, at the wizard's check and by `npm run plugin -- check`,
// so a mistyped `execMetdata` is refused with its name instead of failing every run later.
import { ENTRY_OF, type PluginType } from './manifest.ts'

const transpiler = new Bun.Transpiler({ loader: 'ts' })

/** Edit distance, for "did you mean": hook names are short, so the plain table is enough. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
    row = next
  }
  return row[b.length]!
}

/** Null when `source` exports the hook of `type`, else the reason (naming a near miss). */
export function missingHook(source: string, type: PluginType): string | null {
  const hook = ENTRY_OF[type]
  let exports: string[]
  try {
    exports = transpiler.scan(source).exports
  } catch {
    // A file that does not parse has already failed its pluginInfo() run with the line.
    return null
  }
  if (exports.includes(hook)) return null
  const near = exports.find(
    (name) => name !== 'pluginInfo' && distance(name.toLowerCase(), hook.toLowerCase()) <= 3,
  )
  return (
    `A ${type} plugin must export ${hook}(ctx), and this file does not` +
    (near
      ? ` (it exports ${near}: a typo?)`
      : exports.length
        ? ` (it exports ${exports.join(', ')})`
        : '') +
    '.'
  )
}
