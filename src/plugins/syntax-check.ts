// A plugin source's syntax errors from Bun's parser (the one the server transpiles plugins with),
// with line and column: Bun throws one error, or an AggregateError whose message is only "Parse
// error" and whose errors hold the positions. Read at upload and by `npm run plugin -- check`.
const transpiler = new Bun.Transpiler({ loader: 'ts' })

type BuildMessage = {
  message: string
  position?: { line?: number; column?: number; lineText?: string } | null
}

/** `line` 0 when Bun gave no position; `column` is 1-based, as editors count. */
export type SyntaxProblem = { message: string; line: number; column: number; lineText: string }

/** Empty when the source parses. */
export function findSyntaxErrors(source: string): SyntaxProblem[] {
  try {
    transpiler.transformSync(source)
    return []
  } catch (err) {
    const many = (err as { errors?: BuildMessage[] }).errors
    const messages = Array.isArray(many) && many.length > 0 ? many : [err as BuildMessage]
    return messages.map(({ message, position }) => ({
      message: String(message),
      line: position?.line ?? 0,
      column: Math.max(1, position?.column ?? 1),
      lineText: position?.lineText ?? '',
    }))
  }
}

/** The first error as one line, `file:line:col: SyntaxError: message`, or null. */
export function firstSyntaxError(source: string, file: string): string | null {
  const [first] = findSyntaxErrors(source)
  if (!first) return null
  const where = first.line ? `${file}:${first.line}:${first.column}` : file
  return `${where}: SyntaxError: ${first.message}`
}
