// The pure half of bench/run.ts: its arguments, the shape of bench/results.json, the markdown
// table of a run and its place in bench/README.md (between two marker comments).

export type RunArgs = {
  archives: number
  runs: number
  seconds: number
  clients: number
  target: string | null
  key: string | null
  targetName: string
  out: string
  /** README whose marked block gets the table; null: leave it alone. */
  readme: string | null
}

export const RUN_USAGE = `usage: bun bench/run.ts [options]
  --archives N       archives generated for the Tankobun started here (default 2000)
  --runs N           timed requests per measure (default 30)
  --seconds S        length of one throughput round (default 2)
  --clients N        concurrent clients of the throughput measures (default 8)
  --target URL       also measure this LANraragi-compatible server (its own library)
  --key KEY          its API key (admin, so its search cache can be cleared)
  --target-name NAME its column's name (default target)
  --out FILE         results file (default bench/results.json)
  --readme FILE      README whose bench:run block is rewritten (default bench/README.md;
                     "none" leaves it alone)
`

/** Parses `--name value` pairs; throws with the usage on anything else. */
export function parseRunArgs(argv: string[]): RunArgs {
  const raw: Record<string, string> = {}
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]!
    const value = argv[i + 1]
    if (!name.startsWith('--') || value === undefined) throw new Error(RUN_USAGE)
    raw[name.slice(2)] = value
  }
  const known = ['archives', 'runs', 'seconds', 'clients', 'target', 'key', 'target-name']
  for (const name of Object.keys(raw))
    if (![...known, 'out', 'readme'].includes(name))
      throw new Error(`unknown --${name}\n${RUN_USAGE}`)
  if (Boolean(raw.target) !== Boolean(raw.key))
    throw new Error(`--target needs --key\n${RUN_USAGE}`)
  const positive = (name: string, fallback: number) => {
    const n = Number(raw[name] ?? fallback)
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`)
    return n
  }
  return {
    archives: Math.floor(positive('archives', 2000)),
    runs: Math.floor(positive('runs', 30)),
    seconds: positive('seconds', 2),
    clients: Math.floor(positive('clients', 8)),
    target: raw.target ? raw.target.replace(/\/$/, '') : null,
    key: raw.key ?? null,
    targetName: raw['target-name'] ?? 'target',
    out: raw.out ?? 'bench/results.json',
    readme: raw.readme === 'none' ? null : (raw.readme ?? 'bench/README.md'),
  }
}

/** One server's figures for one measure; absent figures were not measured or failed (`note`). */
export type Figure = {
  p50?: number
  p95?: number
  /** Rate in the measure's `rateUnit`. */
  rate?: number
  /** Bytes per second of a throughput measure, in MiB. */
  mbPerSec?: number
  /** Timed requests (or items) behind the figures. */
  n?: number
  /** A request of the measure, as sent to this server. */
  example?: string
  note?: string
}

export type Measure = {
  name: string
  /** What `rate` counts per second: `req/s`, `pages/s`, `archives/s`… */
  rateUnit: string
  figures: Record<string, Figure>
}

export type RunResults = {
  date: string
  commit: string
  machine: Record<string, string | number>
  settings: Record<string, string | number>
  servers: { name: string; url: string; archives: number; library: string }[]
  measures: Measure[]
}

const num = (n: number | undefined, digits: number) =>
  n === undefined || !Number.isFinite(n) ? '' : n.toFixed(digits)

/** p50 and p95 in ms; the rate rounded to a whole number above 100. */
function cells(figure: Figure | undefined, unit: string): string[] {
  if (!figure) return ['', '', '']
  if (figure.p50 === undefined && figure.rate === undefined)
    return [`n/a${figure.note ? ` (${figure.note})` : ''}`, '', '']
  const rate =
    figure.rate === undefined ? '' : `${num(figure.rate, figure.rate >= 100 ? 0 : 1)} ${unit}`
  return [num(figure.p50, 2), num(figure.p95, 2), rate]
}

/** The results as a markdown table: a p50 / p95 / rate column group per server. */
export function resultsTable(results: RunResults): string {
  const names = results.servers.map((s) => s.name)
  const header = ['measure', ...names.flatMap((n) => [`${n} p50 ms`, `${n} p95 ms`, `${n} rate`])]
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`]
  for (const measure of results.measures) {
    const row = [measure.name, ...names.flatMap((n) => cells(measure.figures[n], measure.rateUnit))]
    lines.push(`| ${row.join(' | ')} |`)
  }
  const m = results.machine
  const servers = results.servers
    .map((s) => `${s.name}: ${s.url}, ${s.archives} archives (${s.library})`)
    .join('; ')
  return [
    `Run of ${results.date} at commit ${results.commit}; ${m.cpus} x ${m.cpu}, ` +
      `${m.memoryGiB} GiB, Bun ${m.bun}, load average ${m.loadStart} -> ${m.loadEnd}. ` +
      `Servers: ${servers}. ${results.settings.runs} timed requests per latency measure; ` +
      `rates without a client count are one client, back to back.`,
    '',
    ...lines,
  ].join('\n')
}

export const BLOCK_START = '<!-- bench:run:start -->'
export const BLOCK_END = '<!-- bench:run:end -->'

/** `text` with its marked block's inside replaced by `inside` (the block appended if absent). */
export function replaceBlock(text: string, inside: string): string {
  const block = `${BLOCK_START}\n${inside.trim()}\n${BLOCK_END}`
  const start = text.indexOf(BLOCK_START)
  const end = text.indexOf(BLOCK_END)
  if (start === -1 || end < start) return `${text.trimEnd()}\n\n${block}\n`
  return text.slice(0, start) + block + text.slice(end + BLOCK_END.length)
}
