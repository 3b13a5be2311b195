// The rules of docs/architecture.md, read from the source: import direction (STYLE.md section 2),
// every file on a part, one writer per library table, no module-level state, registrations only
// in the area modules. Every import counts: `import ... from`, `export ... from`, `import()` and
// `require()`. A broken rule fails with the file, the line and what broke it.
import { describe, expect, it } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import {
  declarationOf,
  importsIn,
  tokenize,
  topLevelStatements,
  type Import,
  type Token,
} from '../helpers/source-scan.ts'

const ROOT = join(import.meta.dir, '..', '..')

type Source = { path: string; tokens: Token[]; imports: Import[] }

function sourcesUnder(dir: string): Source[] {
  if (!existsSync(join(ROOT, dir))) return []
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort()
    .map((path) => {
      const tokens = tokenize(readFileSync(join(ROOT, path), 'utf8'))
      // A declaration file's `import('x')` names a type: it loads nothing.
      const declarations = path.endsWith('.d.ts')
      const imports = importsIn(tokens).map((i) => (declarations ? { ...i, typeOnly: true } : i))
      return { path, tokens, imports }
    })
}

const SOURCES = [...sourcesUnder('src'), ...sourcesUnder('sandbox'), ...sourcesUnder('ui/src')]
const SRC = SOURCES.filter((s) => s.path.startsWith('src/'))
const byPath = new Map(SOURCES.map((s) => [s.path, s]))

/** The repository path an import names, or the package name as written. */
function target(from: string, spec: string): string {
  return spec.startsWith('.') ? relative(ROOT, join(ROOT, dirname(from), spec)) : spec
}

const describeImport = (s: Source, i: Import) =>
  `${s.path}:${i.line} ${
    i.kind === 'dynamic'
      ? `import('${i.spec}')`
      : i.kind === 'require'
        ? `require('${i.spec}')`
        : `imports '${i.spec}'`
  }`

/** Every import of the files under `folder` that `forbidden` refuses (given the import's target). */
function violations(
  folder: string,
  forbidden: (to: string, file: string, i: Import) => boolean,
): string[] {
  const out: string[] = []
  for (const s of SOURCES.filter((x) => x.path.startsWith(folder)))
    for (const i of s.imports)
      if (forbidden(target(s.path, i.spec), s.path, i)) out.push(describeImport(s, i))
  return out
}

/** A file of this repository (a relative import resolved), not a package. */
const local = (to: string) => /^(src|sandbox|ui|plugins|scripts|test)\//.test(to)
const inside = (to: string, ...folders: string[]) =>
  local(to) && folders.some((f) => (f.endsWith('/') ? to.startsWith(f) : to === f))

describe('architecture: import direction', () => {
  it('domain code never imports elysia or the http layer', () => {
    expect(violations('src/domain/', (to) => to === 'elysia' || inside(to, 'src/http/'))).toEqual(
      [],
    )
  })

  it('the db layer never imports domain, http or jobs', () => {
    expect(
      violations('src/db/', (to) => inside(to, 'src/domain/', 'src/http/', 'src/jobs/')),
    ).toEqual([])
  })

  it('archive readers and workers know nothing of http or the database', () => {
    const forbidden = (to: string) => to === 'elysia' || inside(to, 'src/http/', 'src/db/')
    expect([
      ...violations('src/archive/', forbidden),
      ...violations('src/workers/', forbidden),
    ]).toEqual([])
  })

  it('the worker pool is generic: it imports nothing of ours but errors.ts and log.ts', () => {
    expect(
      violations(
        'src/workers/',
        (to) => local(to) && !inside(to, 'src/workers/', 'src/errors.ts', 'src/log.ts'),
      ),
    ).toEqual([])
  })

  it('images never import domain, http or the database', () => {
    expect(
      violations(
        'src/images/',
        (to) => to === 'elysia' || inside(to, 'src/domain/', 'src/http/', 'src/db/'),
      ),
    ).toEqual([])
  })

  it('archive readers reach workers only through the generic pool, and never images', () => {
    expect(
      violations(
        'src/archive/',
        (to) =>
          inside(to, 'src/images/') ||
          (inside(to, 'src/workers/') &&
            !inside(to, 'src/workers/pool.ts', 'src/workers/protocol.ts')),
      ),
    ).toEqual([])
  })

  it('the streamed multipart reader is generic: it knows no domain code', () => {
    expect(violations('src/http/multipart.ts', (to) => inside(to, 'src/domain/'))).toEqual([])
  })

  it('image and archive decoders (sharp, libarchive.js) load only inside Workers', () => {
    // A `.wasm` import only names the file (src/assets.ts): it loads nothing.
    const decoder = (to: string) =>
      to === 'sharp' || (to.startsWith('libarchive.js') && !to.endsWith('.wasm'))
    expect(
      violations(
        'src/',
        (to, file, i) => decoder(to) && !i.typeOnly && !file.endsWith('.worker.ts'),
      ),
    ).toEqual([])
  })

  it('jobs never import the http layer', () => {
    expect(violations('src/jobs/', (to) => to === 'elysia' || inside(to, 'src/http/'))).toEqual([])
  })

  it('domain code never imports jobs: it enqueues through deps and reports progress by callback', () => {
    expect(violations('src/domain/', (to) => inside(to, 'src/jobs/'))).toEqual([])
  })

  it('the sandbox never imports the server', () => {
    expect(violations('sandbox/', (to) => inside(to, 'src/'))).toEqual([])
  })

  it('the guest prelude imports only itself, the shared limits and the protocol types', () => {
    // It is bundled into every plugin context: a package or a host file would bring Node's
    // world (isolated-vm, node:*) into a context that has none.
    expect(
      violations(
        'sandbox/guest/',
        (to) => !inside(to, 'sandbox/guest/', 'sandbox/limits.ts', 'sandbox/protocol.ts'),
      ),
    ).toEqual([])
  })

  it('the search engine imports only itself and the model (its loader is handed in)', () => {
    expect(
      violations('src/search/', (to) => local(to) && !inside(to, 'src/search/', 'src/model/')),
    ).toEqual([])
  })

  it('the model imports nothing of ours but errors.ts', () => {
    expect(
      violations('src/model/', (to) => local(to) && !inside(to, 'src/model/', 'src/errors.ts')),
    ).toEqual([])
  })

  for (const [part, folder] of [
    ['outbound HTTP', 'src/net/'],
    ['the language-model client', 'src/llm/'],
  ] as const)
    it(`${part} imports only the model, errors, log and the Config type`, () => {
      const allowed = [folder, 'src/model/', 'src/errors.ts', 'src/log.ts']
      expect(
        violations(
          folder,
          (to, _file, i) =>
            local(to) && !inside(to, ...allowed) && !(to === 'src/config.ts' && i.typeOnly),
        ),
      ).toEqual([])
      expect(SRC.some((s) => s.path.startsWith(folder))).toBe(true)
    })

  it('archive readers never import domain code', () => {
    expect(violations('src/archive/', (to) => inside(to, 'src/domain/'))).toEqual([])
  })

  it('the http layer reaches the database only through domain code', () => {
    expect(violations('src/http/', (to) => inside(to, 'src/db/'))).toEqual([])
  })

  it('domain code builds no queries itself (it never imports the table schema)', () => {
    expect(violations('src/domain/', (to) => inside(to, 'src/db/schema'))).toEqual([])
  })

  it('plugins import only db (the plugins repo), errors, log, assets, the model, the address guard and the sandbox protocol', () => {
    const allowed = [
      'src/plugins/',
      'src/db/client.ts',
      'src/db/repos/plugins.repo.ts',
      'src/errors.ts',
      'src/log.ts',
      'src/assets.ts',
      'src/model/',
      'src/net/address-guard.ts',
      'sandbox/protocol.ts',
    ]
    expect(violations('src/plugins/', (to) => local(to) && !inside(to, ...allowed))).toEqual([])
  })

  it('the plugin command-line tool is an entry point: nothing of the server imports it', () => {
    const cli = (path: string) => path.startsWith('src/cli/')
    expect(violations('src/', (to, file) => cli(to) && !cli(file))).toEqual([])
  })

  it('the command-line tool runs no server: it never imports http, domain, jobs, areas or boot', () => {
    const server = [
      'src/http/',
      'src/domain/',
      'src/jobs/',
      'src/areas/',
      'src/boot.ts',
      'src/app.ts',
    ]
    const cli = SRC.filter((s) => s.path.startsWith('src/cli/'))
    expect(cli.length).toBeGreaterThan(0)
    expect(cli.flatMap((s) => violations(s.path, (to) => inside(to, ...server)))).toEqual([])
  })

  it('the web UI speaks only HTTP: ui/src imports nothing outside itself but preact', () => {
    expect(
      violations('ui/src/', (to, _file, i) =>
        i.spec.startsWith('.')
          ? !to.startsWith('ui/src/')
          : !/^(preact|@preact\/signals)(\/|$)/.test(i.spec),
      ),
    ).toEqual([])
  })
})

// --- Parts: docs/architecture.md's table names every file's part. ---

/** The paths in the folder column of docs/architecture.md's parts table, by part. */
function partsTable(): Map<string, string[]> {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
  const section = doc.slice(doc.indexOf('## Parts'), doc.indexOf('\n## ', doc.indexOf('## Parts')))
  const parts = new Map<string, string[]>()
  for (const row of section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| part'))) {
    const [part, folder] = row
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim())
    if (!part || !folder) continue
    parts.set(
      part,
      [...folder.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    )
  }
  return parts
}

describe('architecture: parts', () => {
  const parts = partsTable()

  it('the parts table declares the areas, the command-line tool and boot', () => {
    expect(parts.get('areas')).toEqual(['src/areas/'])
    expect(parts.get('cli')).toEqual(['src/cli/'])
    expect(parts.get('boot')).toContain('src/boot.ts')
  })

  it('every file under src/ belongs to a part of the table', () => {
    const paths = [...parts.values()].flat()
    const onPart = (file: string) =>
      paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p))
    expect(SRC.map((s) => s.path).filter((file) => !onPart(file))).toEqual([])
  })

  it('every path the table names exists', () => {
    expect(
      [...parts.values()]
        .flat()
        .filter((p) => !existsSync(join(ROOT, p)))
        .map((p) => `docs/architecture.md names ${p}, which does not exist`),
    ).toEqual([])
  })
})

// --- Writers: a library table is written only by its writer, which publishes the events. ---

/**
 * Repos whose tables are not library rows: nothing subscribes to their changes, so their writes
 * need no writer. Every other repo's write functions are the writers' alone.
 */
const NOT_LIBRARY_REPOS: Record<string, string> = {
  'src/db/repos/auth.repo.ts': 'API tokens and sessions',
  'src/db/repos/bookmarks.repo.ts': "a reader's page marks, beside the archives",
  'src/db/repos/database.repo.ts': 'the drop clearing bookmarks and credentials',
  'src/db/repos/duplicates.repo.ts': 'page hashes and the groups of the duplicate scan',
  'src/db/repos/group-suggestions.repo.ts': 'suggestions the user chose to ignore',
  'src/db/repos/jobs.repo.ts': 'job state: the queue is its only writer (own rule below)',
  'src/db/repos/plugins.repo.ts': 'plugin registrations and settings',
  'src/db/repos/settings.repo.ts': 'server settings: domain/settings.ts is their store',
  'src/db/repos/snapshots.repo.ts': 'backup snapshots',
  'src/db/repos/splits.repo.ts': 'kept split suggestions',
}

const SQL_WRITE = /\b(INSERT|UPDATE|DELETE|REPLACE)\b/
const DRIZZLE_WRITE = new Set(['insert', 'update', 'delete'])

/**
 * The exported functions of a repo that write: their body runs drizzle's insert, update or delete
 * on a table of the schema, or SQL text that inserts, updates or deletes, or calls a function
 * (or names a statement) of the same file that does.
 */
function writeFunctionsOf(repo: Source): string[] {
  const { tokens } = repo
  const tables = new Set(
    repo.imports
      .filter((i) => target(repo.path, i.spec).startsWith('src/db/schema/'))
      .flatMap((i) => [...i.locals.values()]),
  )
  const decls = topLevelStatements(tokens).map((s) => ({ s, ...declarationOf(tokens, s) }))
  const names = (d: (typeof decls)[number]) =>
    tokens
      .slice(d.s.start, d.s.end)
      .filter((t, k) => t.kind === 'word' && tokens[d.s.start + k - 1]?.text !== '.')
      .map((t) => t.text)
  const writes = new Set<string>()
  for (const d of decls) {
    const body = tokens.slice(d.s.start, d.s.end)
    const direct = body.some(
      (t, k) =>
        (t.kind === 'string' && SQL_WRITE.test(t.text)) ||
        (DRIZZLE_WRITE.has(t.text) &&
          body[k - 1]?.text === '.' &&
          body[k + 1]?.text === '(' &&
          tables.has(body[k + 2]?.text ?? '')),
    )
    if (direct && d.name) writes.add(d.name)
  }
  for (let grew = true; grew;) {
    grew = false
    for (const d of decls)
      if (d.name && !writes.has(d.name) && names(d).some((n) => n !== d.name && writes.has(n))) {
        writes.add(d.name)
        grew = true
      }
  }
  return decls
    .filter((d) => d.exported && d.name && writes.has(d.name) && d.keyword !== 'type')
    .map((d) => d.name!)
}

const REPOS = SRC.filter((s) => /^src\/db\/repos\/[^/]+\.repo\.ts$/.test(s.path))
const WRITES_BY_REPO = new Map(REPOS.map((r) => [r.path, new Set(writeFunctionsOf(r))]))

/** The library-repo write functions each import takes (`*`: the whole module). */
function writesImported(s: Source, repos: (path: string) => boolean) {
  const out: { i: Import; names: string[] }[] = []
  for (const i of s.imports) {
    const writes = WRITES_BY_REPO.get(target(s.path, i.spec))
    if (!writes || !repos(target(s.path, i.spec)) || i.typeOnly) continue
    const names =
      i.names === '*'
        ? [...writes]
        : i.names.filter((n) => !n.typeOnly && writes.has(n.name)).map((n) => n.name)
    if (names.length > 0) out.push({ i, names })
  }
  return out
}

/** A writer: `save.ts` or `<aggregate>-save.ts` in src/domain, writing inside commit()'s Write. */
const isWriter = (s: Source) =>
  s.path.startsWith('src/domain/') &&
  /(^|-)save\.ts$/.test(basename(s.path)) &&
  s.imports.some(
    (i) =>
      target(s.path, i.spec) === 'src/domain/commit.ts' &&
      i.names !== '*' &&
      i.names.some((n) => n.name === 'Write'),
  )

describe('architecture: writers', () => {
  const library = (path: string) => !(path in NOT_LIBRARY_REPOS)

  it('the repos read as writing are those whose functions insert, update or delete', () => {
    // The reading itself, on functions known to write and to read.
    const archives = WRITES_BY_REPO.get('src/db/repos/archives.repo.ts')!
    for (const name of ['insertArchive', 'updateArchive', 'setArchivePages', 'deleteArchiveRow'])
      expect(archives).toContain(name)
    for (const name of ['findArchive', 'listArchives', 'readArchivePages', 'countArchives'])
      expect(archives).not.toContain(name)
    const downloads = WRITES_BY_REPO.get('src/db/repos/downloads.repo.ts')!
    for (const name of ['insertDownloadItem', 'updateDownloadItem', 'deleteDownloadItem'])
      expect(downloads).toContain(name)
    for (const name of ['findDownloadItem', 'listDownloadItems', 'listDownloadItemsByState'])
      expect(downloads).not.toContain(name)
    expect(WRITES_BY_REPO.get('src/db/repos/tankoubons.repo.ts')).toContain('replaceTankMembers')
  })

  it('library rows are written only by their writers (*-save.ts), which publish the events', () => {
    const offenders = SRC.filter((s) => !s.path.startsWith('src/db/repos/') && !isWriter(s))
      .flatMap((s) => writesImported(s, library).map((w) => ({ s, ...w })))
      .map(({ s, i, names }) => `${describeImport(s, i)}: ${names.join(', ')}`)
    expect(offenders).toEqual([])
  })

  it('every library repo has a writer, and every repo is either library rows or listed with its reason', () => {
    const writers = SRC.filter(isWriter)
    const written = new Set(
      writers.flatMap((w) => writesImported(w, library).map((x) => target(w.path, x.i.spec))),
    )
    const unwritten = REPOS.map((r) => r.path).filter(
      (path) => library(path) && (WRITES_BY_REPO.get(path)?.size ?? 0) > 0 && !written.has(path),
    )
    expect(unwritten.map((p) => `${p} has write functions but no writer`)).toEqual([])
    expect(writers.map((w) => w.path)).toEqual([
      'src/domain/archives/save.ts',
      'src/domain/collections/category-save.ts',
      'src/domain/collections/tank-save.ts',
      'src/domain/downloads/item-save.ts',
    ])
    expect(Object.keys(NOT_LIBRARY_REPOS).filter((p) => !byPath.has(p))).toEqual([])
  })

  it('job state is written only by the queue (src/jobs/*.ts, never a kind)', () => {
    const queue = (s: Source) => /^src\/jobs\/[^/]+\.ts$/.test(s.path)
    const offenders = SRC.filter((s) => !s.path.startsWith('src/db/repos/') && !queue(s))
      .flatMap((s) =>
        writesImported(s, (p) => p === 'src/db/repos/jobs.repo.ts').map((w) => ({ s, ...w })),
      )
      .map(({ s, i, names }) => `${describeImport(s, i)}: ${names.join(', ')}`)
    expect(offenders).toEqual([])
  })

  it('the search index hears of writes only through its event subscriber', () => {
    const sync =
      /search\.(upsertArchive|removeArchive|refreshTankoubon|removeTankoubon|clearCache)\(/
    const allowed = [
      'src/domain/search/index-sync.ts',
      // DELETE /api/search/cache: the purge of the index's own cache, not a library write.
      'src/http/routes/search.ts',
    ]
    const offenders = SRC.filter(
      (s) => !s.path.startsWith('src/search/') && !allowed.includes(s.path),
    ).flatMap((s) =>
      readFileSync(join(ROOT, s.path), 'utf8')
        .split('\n')
        .flatMap((line, n) => (sync.test(line) ? [`${s.path}:${n + 1} ${line.trim()}`] : [])),
    )
    expect(offenders).toEqual([])
  })
})

// --- State: no module keeps per-server state; it lives in an area's state record. ---

// prettier-ignore
const MUTATORS = new Set([
  'set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse',
  'fill', 'copyWithin',
])
// prettier-ignore
const ASSIGNS = new Set([
  '=', '+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '>>>=', '&=', '|=', '^=', '&&=', '||=',
  '??=', '++', '--',
])

/**
 * Where `name` is changed within tokens [from, to): a mutating method called on it (`set`, `push`,
 * ...), a member or element of it assigned, incremented or deleted. Its own declaration is not
 * searched: a table filled as the module loads is a constant.
 */
function mutationOf(tokens: Token[], name: string, from: number, to: number): Token | null {
  for (let k = from; k < to; k++) {
    const t = tokens[k]!
    const prev = tokens[k - 1]
    if (t.kind !== 'word' || t.text !== name || prev?.text === '.' || prev?.text === '?.') continue
    // A property key or a shorthand that only reads it (`{ name }`) is not a change.
    let j = k + 1
    let members = 0
    for (;;) {
      const u = tokens[j]
      if ((u?.text === '.' || u?.text === '?.') && tokens[j + 1]?.kind === 'word') {
        if (members === 0 && MUTATORS.has(tokens[j + 1]!.text) && tokens[j + 2]?.text === '(')
          return t
        j += 2
      } else if (u?.text === '[') {
        const depth = u.depth
        for (j++; j < to && !(tokens[j]!.text === ']' && tokens[j]!.depth === depth); j++);
        j++
      } else break
      members++
    }
    if (members > 0 && (ASSIGNS.has(tokens[j]?.text ?? '') || prev?.text === 'delete')) return t
    if (members > 0 && (prev?.text === '++' || prev?.text === '--')) return t
  }
  return null
}

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet'])

/** `new Map()`, `new Set<string>()`, ... with no entries: the collection at `at`, or null. */
function emptyCollectionAt(tokens: Token[], at: number): string | null {
  if (tokens[at]?.text !== 'new' || !COLLECTIONS.has(tokens[at + 1]?.text ?? '')) return null
  let k = at + 2
  if (tokens[k]?.text === '<')
    for (let open = 0; k < tokens.length; k++) {
      const t = tokens[k]!.text
      open += t === '<' ? 1 : t === '>' ? -1 : t === '>>' ? -2 : t === '>>>' ? -3 : 0
      if (open <= 0) {
        k++
        break
      }
    }
  return tokens[k]?.text === '(' && tokens[k + 1]?.text === ')' ? tokens[at + 1]!.text : null
}

/**
 * Module-level state of a file: `let`/`var`; a const changed outside its declaration; an empty
 * Map, Set, WeakMap or WeakSet not filled in its declaration (another module may fill it).
 */
function moduleStateOf(s: Source): string[] {
  const { tokens } = s
  const out: string[] = []
  for (const st of topLevelStatements(tokens)) {
    const d = declarationOf(tokens, st)
    if (d.keyword === 'let' || d.keyword === 'var') {
      out.push(`${s.path}:${st.line} ${d.name ?? '(destructured)'}: module-level ${d.keyword}`)
      continue
    }
    if (d.keyword !== 'const' || !d.name) continue
    const changed =
      mutationOf(tokens, d.name, 0, st.start) ?? mutationOf(tokens, d.name, st.end, tokens.length)
    if (changed) {
      out.push(`${s.path}:${st.line} ${d.name}: module-level const changed at line ${changed.line}`)
      continue
    }
    let init = d.nameAt + 1
    while (init < st.end && !(tokens[init]!.text === '=' && tokens[init]!.depth === 0)) init++
    const empty = emptyCollectionAt(tokens, init + 1)
    if (empty && !mutationOf(tokens, d.name, init, st.end))
      out.push(`${s.path}:${st.line} ${d.name}: module-level empty ${empty}, filled elsewhere`)
  }
  return out
}

describe('architecture: per-server state', () => {
  const STATELESS = ['src/domain/', 'src/http/', 'src/jobs/', 'src/areas/']
  it('domain, http, jobs and areas keep no module-level state (it belongs in an area state record)', () => {
    const found = SRC.filter((s) => STATELESS.some((f) => s.path.startsWith(f))).flatMap(
      moduleStateOf,
    )
    expect(found).toEqual([])
  })

  it('the reading of state finds what it must, and leaves constants alone', () => {
    const read = (text: string) =>
      moduleStateOf({ path: 'x.ts', tokens: tokenize(text), imports: [] }).map((l) =>
        l.replace(/^x\.ts:\d+ /, ''),
      )
    expect(read('let n = 0\nexport function f() { n++ }')).toEqual(['n: module-level let'])
    expect(read('const m = new Map()\nexport const f = (k) => m.set(k, 1)')).toEqual([
      'm: module-level const changed at line 2',
    ])
    expect(read('const o = {}\nexport function f() { o.x = 1 }')).toEqual([
      'o: module-level const changed at line 2',
    ])
    expect(read('const a = []\nexport function f(x) { a[0] = x }')).toEqual([
      'a: module-level const changed at line 2',
    ])
    expect(
      read(
        'const w = new WeakMap<object, Map<string, number>>()\nexport const f = (o) => fill(w, o)',
      ),
    ).toEqual(['w: module-level empty WeakMap, filled elsewhere'])
    expect(
      read(
        [
          'const RE = /a["\']/g',
          "const SET = new Set(['a'])",
          'const TABLE = new Map<number, number>()',
          'for (const k of [1]) TABLE.set(k, k)',
          'const FROZEN = Object.freeze({ a: 1 })',
          'const NONE: readonly string[] = []',
          'export function f(m) { const SET2 = new Set(); SET2.add(1); m.set(1); return SET.has("a") && RE.test("a") && TABLE.get(1) && FROZEN.a }',
        ].join('\n'),
      ),
    ).toEqual([])
  })
})

// --- Areas: each area module is the one place its registrations appear. ---

const AREA_FILES = SRC.filter(
  (s) =>
    s.path.startsWith('src/areas/') &&
    s.tokens.some(
      (t, k) => t.text === 'Area' && s.tokens[k - 1]?.text === ':' && s.tokens[k + 1]?.text === '<',
    ),
)

/** The hooks of an area whose values are registrations (its `state` builds, it registers nothing). */
const REGISTERING = new Set(['routes', 'jobs', 'subscribe', 'recover', 'start'])

/**
 * What an area registers: every value it imports from outside src/areas and names in the
 * registering hooks of its `Area` declaration (route files and policy rows, job kinds,
 * subscribers, recovery, background start).
 */
function registrationsOf(area: Source): { module: string; name: string }[] {
  const { tokens } = area
  const decl = topLevelStatements(tokens).find((st) =>
    tokens
      .slice(st.start, st.end)
      .some((t, k) => t.text === 'Area' && tokens[st.start + k + 1]?.text === '<'),
  )!
  // The declaration's object literal: its keys are at depth 1, each value runs to the next `,`.
  const named = new Set<string>()
  let hook: string | null = null
  for (let k = decl.start; k < decl.end; k++) {
    const t = tokens[k]!
    if (
      t.depth === 1 &&
      t.kind === 'word' &&
      tokens[k + 1]?.text === ':' &&
      ['{', ','].includes(tokens[k - 1]?.text ?? '')
    )
      hook = t.text
    else if (t.depth === 1 && t.text === ',') hook = null
    else if (hook && REGISTERING.has(hook) && t.kind === 'word' && tokens[k - 1]?.text !== '.')
      named.add(t.text)
  }
  return area.imports.flatMap((i) => {
    const module = target(area.path, i.spec)
    if (i.typeOnly || !module.startsWith('src/') || module.startsWith('src/areas/')) return []
    return [...i.locals].filter(([, l]) => named.has(l)).map(([name]) => ({ module, name }))
  })
}

describe('architecture: areas', () => {
  const registered = new Map<string, string>() // `${module} ${name}` -> the area
  for (const area of AREA_FILES)
    for (const r of registrationsOf(area)) registered.set(`${r.module} ${r.name}`, area.path)
  const routeFiles = SRC.filter((s) => /^src\/http\/routes\/[^/]+\.ts$/.test(s.path))
  const kindFiles = SRC.filter(
    (s) => /^src\/jobs\/kinds\/[^/]+\.ts$/.test(s.path) && !s.path.endsWith('/index.ts'),
  )

  it('registrations are read from the areas: route files, policy rows, job kinds, subscribers, recovery', () => {
    for (const name of [
      'src/http/routes/archives.ts archivesRoutes',
      'src/http/routes/archives.ts archivesPolicy',
      'src/jobs/kinds/rescan.ts rescanJob',
      'src/domain/search/index-sync.ts syncIndexWithEvents',
      'src/http/wire-cache.ts dropWireOnWrites',
      'src/domain/archives/comicinfo-at-catalogue.ts readComicInfoOfNewArchives',
      'src/domain/plugins/auto-run.ts runPluginsOnNewArchives',
      'src/domain/downloads/compare-cache.ts dropComparisonsOfRemovedItems',
      'src/domain/downloads/sweep.ts sweepInterruptedDownloads',
      'src/domain/split/journal.ts recoverInterruptedSplits',
      'src/domain/archives/upload.ts removeInterruptedWrites',
      'src/domain/split/source.ts removeInterruptedSplits',
    ])
      expect([...registered.keys()]).toContain(name)
  })

  it('what an area registers is imported by no other module (tests may)', () => {
    const offenders: string[] = []
    for (const s of SRC.filter((x) => !x.path.startsWith('src/areas/')))
      for (const i of s.imports) {
        if (i.typeOnly) continue
        const module = target(s.path, i.spec)
        const names =
          i.names === '*' ? ['*'] : i.names.filter((n) => !n.typeOnly).map((n) => n.name)
        for (const name of names) {
          const hits =
            name === '*'
              ? [...registered].filter(([key]) => key.startsWith(`${module} `))
              : [...registered].filter(([key]) => key === `${module} ${name}`)
          for (const [key, area] of hits)
            offenders.push(`${describeImport(s, i)}: ${key.split(' ')[1]}, registered by ${area}`)
        }
      }
    expect(offenders).toEqual([])
  })

  it('every route file exports xRoutes and xPolicy, mounted by exactly one area', () => {
    const problems = routeFiles.flatMap((file) => {
      const exported = topLevelStatements(file.tokens)
        .map((st) => declarationOf(file.tokens, st))
        .filter((d) => d.exported && d.name)
        .map((d) => d.name!)
      const routes = exported.filter((n) => n.endsWith('Routes'))
      const policy = exported.filter((n) => n.endsWith('Policy'))
      const areas = new Set(
        [...routes, ...policy].map((n) => registered.get(`${file.path} ${n}`)).filter(Boolean),
      )
      if (routes.length !== 1 || policy.length !== 1)
        return [`${file.path} exports ${routes.length} xRoutes and ${policy.length} xPolicy`]
      if (
        !registered.has(`${file.path} ${routes[0]}`) ||
        !registered.has(`${file.path} ${policy[0]}`)
      )
        return [`${file.path}: ${routes[0]} and ${policy[0]} are not both in an area's routes`]
      return areas.size === 1 ? [] : [`${file.path} is mounted by ${[...areas].join(', ')}`]
    })
    expect(problems).toEqual([])
  })

  it('every job kind file is registered by an area', () => {
    expect(
      kindFiles
        .filter((k) => ![...registered.keys()].some((key) => key.startsWith(`${k.path} `)))
        .map((k) => `${k.path} is in no area's jobs`),
    ).toEqual([])
  })

  it('every area module is on the area list (AREAS in src/areas/index.ts)', () => {
    const index = byPath.get('src/areas/index.ts')!
    const list = topLevelStatements(index.tokens).find(
      (st) => declarationOf(index.tokens, st).name === 'AREAS',
    )!
    const listed = new Set(index.tokens.slice(list.start, list.end).map((t) => t.text))
    const areaNames = AREA_FILES.filter((a) => a.path !== 'src/areas/area.ts').flatMap((a) =>
      topLevelStatements(a.tokens)
        .map((st) => ({ st, d: declarationOf(a.tokens, st) }))
        .filter(
          ({ st, d }) =>
            d.exported &&
            a.tokens[st.start + 3]?.text === ':' &&
            a.tokens[st.start + 4]?.text === 'Area',
        )
        .map(({ d }) => `${a.path} ${d.name}`),
    )
    expect(areaNames.length).toBeGreaterThan(10)
    expect(
      areaNames
        .filter((n) => !listed.has(n.split(' ')[1]!))
        .map((n) => `${n.replace(' ', ': ')} is not in AREAS`),
    ).toEqual([])
  })

  it('boot and the app import no route file and no job kind: they come from the area list', () => {
    const boot = ['src/boot.ts', 'src/app.ts', 'src/main.ts', 'src/deps.ts']
    expect(
      boot.flatMap((file) =>
        violations(
          file,
          (to) =>
            to.startsWith('src/http/routes/') ||
            (to.startsWith('src/jobs/kinds/') && to !== 'src/jobs/kinds/index.ts'),
        ),
      ),
    ).toEqual([])
  })

  it('areas are composed only by boot (other modules may name their types), and never import boot', () => {
    const composers = ['src/boot.ts', 'src/app.ts']
    expect([
      ...violations(
        'src/',
        (to, file, i) =>
          to.startsWith('src/areas/') &&
          !i.typeOnly &&
          !file.startsWith('src/areas/') &&
          !composers.includes(file),
      ),
      ...violations('src/areas/', (to) =>
        ['src/boot.ts', 'src/app.ts', 'src/main.ts'].includes(to),
      ),
    ]).toEqual([])
  })
})

describe('architecture: the import reader', () => {
  it('reads every kind of import, and names what each takes', () => {
    const read = (text: string) => importsIn(tokenize(text))
    const found = read(
      [
        "import a, { b, type C, d as e } from './one.ts'",
        "import type { F } from './two.ts'",
        "import * as ns from './three.ts'",
        "import './four.ts'",
        "export { g } from './five.ts'",
        "export * from './six.ts'",
        "const x = await import('./seven.ts')",
        "const y = require('eight')",
        "// import { z } from './comment.ts'",
        'const s = "import { q } from \'./string.ts\'"',
        'export { h }',
        'export type T = { a: string }',
      ].join('\n'),
    )
    expect(found.map((i) => [i.spec, i.kind, i.typeOnly, i.line])).toEqual([
      ['./one.ts', 'import', false, 1],
      ['./two.ts', 'import', true, 2],
      ['./three.ts', 'import', false, 3],
      ['./four.ts', 'import', false, 4],
      ['./five.ts', 'export-from', false, 5],
      ['./six.ts', 'export-from', false, 6],
      ['./seven.ts', 'dynamic', false, 7],
      ['eight', 'require', false, 8],
    ])
    expect(found[0]!.names).toEqual([
      { name: 'default', typeOnly: false },
      { name: 'b', typeOnly: false },
      { name: 'C', typeOnly: true },
      { name: 'd', typeOnly: false },
    ])
    expect([...found[0]!.locals]).toEqual([
      ['default', 'a'],
      ['b', 'b'],
      ['d', 'e'],
    ])
    expect(found[2]!.names).toBe('*')
  })

  it('sees the dynamic import and the require the source holds today', () => {
    const dynamic = SRC.flatMap((s) =>
      s.imports
        .filter((i) => i.kind !== 'import' && i.kind !== 'export-from')
        .map((i) => describeImport(s, i).replace(/:\d+ /, ' ')),
    )
    expect(dynamic).toContain("src/ui-bundle.ts import('../ui/build.ts')")
    expect(dynamic).toContain("src/images/thumbnail.worker.ts require('sharp')")
  })
})
