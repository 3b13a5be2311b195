// Import direction (STYLE.md section 2): http -> domain -> db/repos; jobs -> domain; the sandbox
// never imports the server. A wrong arrow fails here, with the offending file and import.
import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map(
    (m) => m[1]!,
  )
}

function violations(folder: string, forbidden: (spec: string, file: string) => boolean): string[] {
  const out: string[] = []
  for (const file of sourceFiles(join(ROOT, folder)))
    for (const spec of importsOf(file))
      if (forbidden(spec, file)) out.push(`${relative(ROOT, file)} imports ${spec}`)
  return out
}

const intoFolder = (spec: string, file: string, folder: string): boolean =>
  spec.startsWith('.') && relative(ROOT, join(file, '..', spec)).startsWith(folder)

describe('architecture', () => {
  it('domain code never imports elysia or the http layer', () => {
    expect(
      violations(
        'src/domain',
        (spec, file) => spec === 'elysia' || intoFolder(spec, file, 'src/http'),
      ),
    ).toEqual([])
  })

  it('the db layer never imports domain, http or jobs', () => {
    expect(
      violations('src/db', (spec, file) =>
        ['src/domain', 'src/http', 'src/jobs'].some((f) => intoFolder(spec, file, f)),
      ),
    ).toEqual([])
  })

  it('archive readers and workers know nothing of http or the database', () => {
    const forbidden = (spec: string, file: string) =>
      spec === 'elysia' || ['src/http', 'src/db'].some((f) => intoFolder(spec, file, f))
    expect([
      ...violations('src/archive', forbidden),
      ...violations('src/workers', forbidden),
    ]).toEqual([])
  })

  it('the worker pool is generic: it imports nothing of ours but errors.ts and log.ts', () => {
    const outside = (spec: string, file: string) =>
      spec.startsWith('.') &&
      !intoFolder(spec, file, 'src/workers/') &&
      !['src/errors.ts', 'src/log.ts'].includes(relative(ROOT, join(file, '..', spec)))
    expect(violations('src/workers', outside)).toEqual([])
  })

  it('images never import domain, http or the database', () => {
    const forbidden = (spec: string, file: string) =>
      spec === 'elysia' ||
      ['src/domain', 'src/http', 'src/db'].some((f) => intoFolder(spec, file, f))
    expect(violations('src/images', forbidden)).toEqual([])
  })

  it('archive readers reach workers only through the generic pool, and never images', () => {
    const forbidden = (spec: string, file: string) =>
      intoFolder(spec, file, 'src/images/') ||
      (intoFolder(spec, file, 'src/workers/') &&
        !['src/workers/pool.ts', 'src/workers/protocol.ts'].includes(
          relative(ROOT, join(file, '..', spec)),
        ))
    expect(violations('src/archive', forbidden)).toEqual([])
  })

  it('the streamed multipart reader is generic: it knows no domain code', () => {
    const file = join(ROOT, 'src/http/multipart.ts')
    expect(importsOf(file).filter((spec) => intoFolder(spec, file, 'src/domain'))).toEqual([])
  })

  it('image and archive decoders (sharp, libarchive.js) load only inside Workers', () => {
    // A `.wasm` import only names the file (src/assets.ts): it loads nothing.
    const decoder = (spec: string) =>
      spec === 'sharp' || (spec.startsWith('libarchive.js') && !spec.endsWith('.wasm'))
    expect(
      violations('src', (spec, file) => decoder(spec) && !file.endsWith('.worker.ts')),
    ).toEqual([])
  })

  it('jobs never import the http layer', () => {
    expect(
      violations(
        'src/jobs',
        (spec, file) => spec === 'elysia' || intoFolder(spec, file, 'src/http'),
      ),
    ).toEqual([])
  })

  it('domain code never imports jobs: it enqueues through deps and reports progress by callback', () => {
    expect(violations('src/domain', (spec, file) => intoFolder(spec, file, 'src/jobs'))).toEqual([])
  })

  it('the sandbox never imports the server', () => {
    expect(violations('sandbox', (spec, file) => intoFolder(spec, file, 'src'))).toEqual([])
  })

  it('the guest prelude imports only itself, the shared limits and the protocol types', () => {
    // It is bundled into every plugin context: a package or a host file would bring Node's
    // world (isolated-vm, node:*) into a context that has none.
    const outside = (spec: string, file: string) =>
      !intoFolder(spec, file, 'sandbox/guest/') &&
      !['sandbox/limits.ts', 'sandbox/protocol.ts'].includes(relative(ROOT, join(file, '..', spec)))
    expect(violations('sandbox/guest', outside)).toEqual([])
  })

  it('the search engine imports only itself and the model (its loader is handed in)', () => {
    const outside = (spec: string, file: string) =>
      spec.startsWith('.') && !['src/search/', 'src/model/'].some((f) => intoFolder(spec, file, f))
    expect(violations('src/search', outside)).toEqual([])
  })

  it('the model imports nothing of ours but errors.ts', () => {
    const outside = (spec: string, file: string) =>
      spec.startsWith('.') &&
      !intoFolder(spec, file, 'src/model/') &&
      relative(ROOT, join(file, '..', spec)) !== 'src/errors.ts'
    expect(violations('src/model', outside)).toEqual([])
  })

  it('outbound HTTP imports only the model, errors, log and config types', () => {
    const allowed = ['src/errors.ts', 'src/log.ts', 'src/config.ts']
    const outside = (spec: string, file: string) =>
      spec.startsWith('.') &&
      !['src/net/', 'src/model/'].some((f) => intoFolder(spec, file, f)) &&
      !allowed.includes(relative(ROOT, join(file, '..', spec)))
    expect(violations('src/net', outside)).toEqual([])
    // Config is read by boot and handed in; net only names its type.
    const configValue = /^\s*import\s+(?!type\b)[^'"]*from\s+['"][./]+config\.ts['"]/m
    const offenders = sourceFiles(join(ROOT, 'src/net'))
      .filter((file) => configValue.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file))
    expect(offenders).toEqual([])
  })

  it('the language-model client imports only the model, errors, log and config types', () => {
    const allowed = ['src/errors.ts', 'src/log.ts', 'src/config.ts']
    const outside = (spec: string, file: string) =>
      spec.startsWith('.') &&
      !['src/llm/', 'src/model/'].some((f) => intoFolder(spec, file, f)) &&
      !allowed.includes(relative(ROOT, join(file, '..', spec)))
    expect(violations('src/llm', outside)).toEqual([])
    expect(sourceFiles(join(ROOT, 'src/llm')).length).toBeGreaterThan(0)
  })

  it('archive readers never import domain code', () => {
    expect(
      violations('src/archive', (spec, file) => intoFolder(spec, file, 'src/domain/')),
    ).toEqual([])
  })

  it('the http layer reaches the database only through domain code', () => {
    expect(violations('src/http', (spec, file) => intoFolder(spec, file, 'src/db/'))).toEqual([])
  })

  it('domain code builds no queries itself (it never imports the table schema)', () => {
    expect(
      violations('src/domain', (spec, file) => intoFolder(spec, file, 'src/db/schema')),
    ).toEqual([])
  })

  it('library rows are written only by their writers, which publish the events', () => {
    const writes =
      /\b(insertArchive|updateArchive|deleteArchiveRow|setArchivePages|clearEveryNewFlag|insertTankoubon|updateTankoubonRow|deleteTankoubonRow|appendTankMember|removeTankMember|replaceTankMembers|removeTankMemberEverywhere|insertCategory|updateCategoryRow|deleteCategoryRow|addCategoryMember|removeCategoryMember|clearCategoryMembers|removeMemberEverywhere)\b/
    const writers = [
      'src/domain/archives/save.ts',
      'src/domain/collections/tank-save.ts',
      'src/domain/collections/category-save.ts',
    ]
    const offenders = sourceFiles(join(ROOT, 'src'))
      .map((file) => relative(ROOT, file))
      .filter((file) => !file.startsWith('src/db/repos/') && !writers.includes(file))
      .filter((file) => writes.test(readFileSync(join(ROOT, file), 'utf8')))
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
    const offenders = sourceFiles(join(ROOT, 'src'))
      .map((file) => relative(ROOT, file))
      .filter((file) => !file.startsWith('src/search/') && !allowed.includes(file))
      .filter((file) => sync.test(readFileSync(join(ROOT, file), 'utf8')))
    expect(offenders).toEqual([])
  })

  it('domain and http modules keep no per-server state: it lives in the area state records', () => {
    // A module-level variable, or a lower-case const made by a constructor or factory (a cache, a
    // counter, a budget), is shared by every server in the process. Constant tables are named in
    // capitals; loggers and text codecs hold nothing of a server's.
    const state =
      /^(?:export )?(?:let|var) |^(?:export )?const [a-z]\w*(?::[^=]+)? = (?:new (?!TextEncoder|TextDecoder)\w+|create(?!Logger)\w*)\b/m
    const offenders = [
      ...sourceFiles(join(ROOT, 'src/domain')),
      ...sourceFiles(join(ROOT, 'src/http')),
    ]
      .filter((file) => state.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file))
    expect(offenders).toEqual([])
  })

  it('the web UI speaks only HTTP: ui/src imports nothing outside itself but preact', () => {
    const outside = (spec: string, file: string) =>
      spec.startsWith('.')
        ? !relative(ROOT, join(file, '..', spec)).startsWith('ui/src/')
        : !/^(preact|@preact\/signals)(\/|$)/.test(spec)
    expect(violations('ui/src', outside)).toEqual([])
  })
})
