// A small TypeScript tokenizer for the architecture test: enough to read every kind of import
// (`import ... from`, `export ... from`, `import()`, `require()`), names of what is imported, and
// a file's top-level statements, without a parser (the typescript package here has no JS API, and
// Prettier's parsers took 5-8 s over src/). Comments are dropped; strings, template text and
// regular expressions are single tokens, so their contents are never read as code.

export type Token = {
  kind: 'word' | 'punct' | 'string' | 'regex'
  text: string
  line: number
  /** Bracket depth ((), [], {}) before the token: 0 is the top level of the module. */
  depth: number
}

// prettier-ignore
const PUNCT = [
  '>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=',
  '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=',
  '&=', '|=', '^=', '**', '<<', '>>',
]

// After these a `/` starts a regular expression, not a division.
// prettier-ignore
const BEFORE_REGEX_WORDS = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do',
  'else', 'yield', 'await',
])

export function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  // Open brackets; 't' marks a template literal's `${`, whose `}` resumes the template.
  const stack: string[] = []
  let line = 1
  let i = 0
  const push = (kind: Token['kind'], value: string, at: number) =>
    tokens.push({ kind, text: value, line: at, depth: stack.length })

  const regexAllowed = () => {
    const prev = tokens.at(-1)
    if (!prev) return true
    if (prev.kind === 'word') return BEFORE_REGEX_WORDS.has(prev.text)
    if (prev.kind === 'punct') return ![')', ']', '}'].includes(prev.text)
    return false
  }

  // Template text from i (just past '`' or a `${...}`'s '}'), up to '`' or '${'.
  const templateChunk = () => {
    const start = i
    const at = line
    while (i < text.length) {
      const c = text[i]!
      if (c === '\\') i += 2
      else if (c === '`') {
        push('string', text.slice(start, i), at)
        i++
        return
      } else if (c === '$' && text[i + 1] === '{') {
        push('string', text.slice(start, i), at)
        i += 2
        stack.push('t')
        return
      } else {
        if (c === '\n') line++
        i++
      }
    }
  }

  while (i < text.length) {
    const c = text[i]!
    if (c === '\n') {
      line++
      i++
    } else if (c === ' ' || c === '\t' || c === '\r') i++
    else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end < 0 ? text.length : end + 2
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++
      i = stop
    } else if (c === "'" || c === '"') {
      // A quote never spans lines: a stray one (JSX text) spoils one line at most.
      let j = i + 1
      let value = ''
      while (j < text.length && text[j] !== c && text[j] !== '\n') {
        if (text[j] === '\\') {
          value += text[j + 1] ?? ''
          j += 2
        } else value += text[j++]
      }
      push('string', value, line)
      i = j + 1
    } else if (c === '`') {
      i++
      templateChunk()
    } else if (c === '/' && regexAllowed()) {
      let j = i + 1
      let inClass = false
      while (j < text.length && text[j] !== '\n') {
        const d = text[j]!
        if (d === '\\') j++
        else if (d === '[') inClass = true
        else if (d === ']') inClass = false
        else if (d === '/' && !inClass) break
        j++
      }
      j++
      while (j < text.length && /[a-z]/.test(text[j]!)) j++
      push('regex', text.slice(i, j), line)
      i = j
    } else if (/[A-Za-z0-9_$]/.test(c)) {
      let j = i + 1
      while (j < text.length && /[A-Za-z0-9_$]/.test(text[j]!)) j++
      push('word', text.slice(i, j), line)
      i = j
    } else if (c === '(' || c === '[' || c === '{') {
      push('punct', c, line)
      stack.push(c)
      i++
    } else if (c === ')' || c === ']' || c === '}') {
      const open = stack.pop()
      if (open === 't') {
        i++
        templateChunk()
      } else {
        push('punct', c, line)
        i++
      }
    } else {
      const op = PUNCT.find((p) => text.startsWith(p, i)) ?? c
      push('punct', op, line)
      i += op.length
    }
  }
  return tokens
}

/** One imported name: `default`, or the exported name it was imported by. */
export type ImportedName = { name: string; typeOnly: boolean }

export type Import = {
  spec: string
  line: number
  kind: 'import' | 'export-from' | 'dynamic' | 'require'
  /** `import type`, or every named import marked `type`: erased, loads nothing. */
  typeOnly: boolean
  /** The names taken; `*` for a namespace, `import()`, `require()` or `export *`: everything. */
  names: ImportedName[] | '*'
  /** Local name of each value import (`import { a as b }`: a -> b). */
  locals: Map<string, string>
}

/** Every import of a file, static, re-exported, dynamic or required, in order. */
export function importsIn(tokens: Token[]): Import[] {
  const out: Import[] = []
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!
    if (t.kind !== 'word' || tokens[k - 1]?.text === '.') continue
    const next = tokens[k + 1]
    if ((t.text === 'import' || t.text === 'require') && next?.text === '(') {
      const arg = tokens[k + 2]
      if (arg?.kind === 'string' && tokens[k + 3]?.text !== '+')
        out.push({
          spec: arg.text,
          line: t.line,
          kind: t.text === 'import' ? 'dynamic' : 'require',
          typeOnly: false,
          names: '*',
          locals: new Map(),
        })
      continue
    }
    if (t.text === 'import' && next && next.text !== '.' && next.text !== '(') {
      const found = readClause(tokens, k + 1)
      if (found) out.push({ ...found, line: t.line, kind: 'import' })
    } else if (t.text === 'export' && next && ['{', '*', 'type'].includes(next.text)) {
      const found = readClause(tokens, k + 1)
      if (found?.fromClause) out.push({ ...found, line: t.line, kind: 'export-from' })
    }
  }
  return out
}

/** `[type] default, { a, type b as c } from 'x'`, `* as ns from 'x'`, `'x'`, from token `k`. */
function readClause(tokens: Token[], k: number) {
  let typeOnly = false
  if (tokens[k]?.text === 'type' && tokens[k + 1]?.text !== ',' && tokens[k + 1]?.text !== 'from') {
    typeOnly = true
    k++
  }
  const names: ImportedName[] = []
  const locals = new Map<string, string>()
  let star = false
  let fromClause = false
  for (; k < tokens.length; k++) {
    const t = tokens[k]!
    if (t.kind === 'string') {
      const all = star ? '*' : names
      const erased = typeOnly || (names.length > 0 && !star && names.every((n) => n.typeOnly))
      return { spec: t.text, typeOnly: erased, names: all, locals, fromClause } as const
    }
    if (t.text === 'from') fromClause = true
    else if (t.text === '*') star = true
    else if (t.text === 'as') continue
    else if (t.text === '{') {
      for (k++; k < tokens.length && tokens[k]!.text !== '}'; k++) {
        if (tokens[k]!.text === ',') continue
        let typed = typeOnly
        if (tokens[k]!.text === 'type' && ![',', '}', 'as'].includes(tokens[k + 1]?.text ?? '')) {
          typed = true
          k++
        }
        const name = tokens[k]!.text
        let local = name
        if (tokens[k + 1]?.text === 'as') {
          local = tokens[k + 2]!.text
          k += 2
        }
        names.push({ name, typeOnly: typed })
        if (!typed) locals.set(name, local)
      }
      if (!endsName(tokens, k)) return null
    } else if (t.kind === 'word') {
      if (tokens[k - 1]?.text !== 'as') {
        // A default import's local name.
        names.push({ name: 'default', typeOnly })
        if (!typeOnly) locals.set('default', t.text)
      }
      if (!endsName(tokens, k)) return null
    } else if (t.text !== ',') return null
  }
  return null
}

// `export { a }`, `export type X = ...`: no module is named after them.
const endsName = (tokens: Token[], k: number) => ['from', ','].includes(tokens[k + 1]?.text ?? '')

/** A top-level statement: its first token's index, and the tokens up to the next one. */
export type Statement = { start: number; end: number; line: number }

const STATEMENT_START = new Set([
  'export',
  'function',
  'const',
  'let',
  'var',
  'type',
  'interface',
  'class',
  'import',
  'async',
  'declare',
  'enum',
])

/** The module's top-level declarations and statements that begin with a declaration keyword. */
export function topLevelStatements(tokens: Token[]): Statement[] {
  const starts: number[] = []
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!
    if (t.depth !== 0 || t.kind !== 'word' || !STATEMENT_START.has(t.text)) continue
    const prev = tokens[k - 1]
    // `export const`, `export async function`, `declare const`: one statement.
    if (prev && prev.depth === 0 && ['export', 'async', 'declare', 'default'].includes(prev.text))
      continue
    // `type` or `async` used inside an expression at the top level (rare): only at a line start.
    if (prev && prev.line === t.line && prev.text !== ';' && prev.text !== '}') continue
    starts.push(k)
  }
  return starts.map((start, n) => ({
    start,
    end: starts[n + 1] ?? tokens.length,
    line: tokens[start]!.line,
  }))
}

/** The keyword after `export`/`declare`/`async`, and the declared name (null: destructuring). */
export function declarationOf(
  tokens: Token[],
  s: Statement,
): { keyword: string; name: string | null; exported: boolean; nameAt: number } {
  let k = s.start
  let exported = false
  while (['export', 'declare', 'async', 'default'].includes(tokens[k]!.text)) {
    if (tokens[k]!.text === 'export') exported = true
    k++
  }
  const keyword = tokens[k]!.text
  k++
  if (tokens[k]?.text === '*') k++ // function*
  const name = tokens[k]?.kind === 'word' ? tokens[k]!.text : null
  return { keyword, name, exported, nameAt: k }
}
