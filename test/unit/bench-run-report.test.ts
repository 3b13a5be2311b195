// The pure half of bench/run.ts: its arguments, the results table and the README block it
// rewrites. The benches themselves are run by hand, never by the suite.
import { describe, expect, it } from 'bun:test'
import {
  BLOCK_END,
  BLOCK_START,
  parseRunArgs,
  replaceBlock,
  resultsTable,
  type RunResults,
} from '../../bench/run-report.ts'

describe('bench/run.ts arguments', () => {
  it('has defaults that finish in minutes, and reads every option', () => {
    expect(parseRunArgs([])).toEqual({
      archives: 2000,
      runs: 30,
      seconds: 2,
      clients: 8,
      target: null,
      key: null,
      targetName: 'target',
      out: 'bench/results.json',
      readme: 'bench/README.md',
    })
    const args = parseRunArgs(
      ['--archives', '50', '--target', 'http://h:3000/', '--key', 'k', '--readme', 'none'].concat([
        '--target-name',
        'lrr',
      ]),
    )
    expect(args).toMatchObject({ archives: 50, target: 'http://h:3000', key: 'k', readme: null })
    expect(args.targetName).toBe('lrr')
  })

  it('refuses a target without a key, unknown options, odd pairs and bad numbers', () => {
    expect(() => parseRunArgs(['--target', 'http://h'])).toThrow('--target needs --key')
    expect(() => parseRunArgs(['--archive', '5'])).toThrow('unknown --archive')
    expect(() => parseRunArgs(['--runs'])).toThrow('usage')
    expect(() => parseRunArgs(['--runs', '0'])).toThrow('--runs must be a positive number')
  })
})

const results: RunResults = {
  date: '2026-11-25T00:00:00.000Z',
  commit: 'abc1234',
  machine: { cpus: 2, cpu: 'CPU', memoryGiB: 24, bun: '1.4.5', loadStart: '0.1', loadEnd: '0.2' },
  settings: { runs: 30 },
  servers: [
    { name: 'tankobun', url: 'here', archives: 10, library: 'generated' },
    { name: 'lrr', url: 'http://h', archives: 12, library: 'its own' },
  ],
  measures: [
    {
      name: 'search',
      rateUnit: 'req/s',
      figures: {
        tankobun: { p50: 0.456, p95: 1.5, rate: 1234.4 },
        lrr: { p50: 10, p95: 20, rate: 55.55 },
      },
    },
    {
      name: 'tags',
      rateUnit: 'req/s',
      figures: { tankobun: { p50: 1, p95: 2 }, lrr: { note: 'HTTP 404' } },
    },
  ],
}

describe('bench/run.ts report', () => {
  it('renders a p50 / p95 / rate column group per server', () => {
    const lines = resultsTable(results).split('\n')
    expect(lines[0]).toContain('commit abc1234')
    expect(lines.slice(2)).toEqual([
      '| measure | tankobun p50 ms | tankobun p95 ms | tankobun rate | lrr p50 ms | lrr p95 ms | lrr rate |',
      '|---|---|---|---|---|---|---|',
      '| search | 0.46 | 1.50 | 1234 req/s | 10.00 | 20.00 | 55.5 req/s |',
      '| tags | 1.00 | 2.00 |  | n/a (HTTP 404) |  |  |',
    ])
  })

  it('replaces the marked block only, or appends it when missing', () => {
    const readme = `# B\n\nbefore\n${BLOCK_START}\nold table\n${BLOCK_END}\nafter\n`
    expect(replaceBlock(readme, 'new table\n')).toBe(
      `# B\n\nbefore\n${BLOCK_START}\nnew table\n${BLOCK_END}\nafter\n`,
    )
    expect(replaceBlock('# B\n', 'table')).toBe(`# B\n\n${BLOCK_START}\ntable\n${BLOCK_END}\n`)
  })
})
