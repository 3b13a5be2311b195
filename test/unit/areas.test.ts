// The assembly of the area list (src/areas/assemble.ts): every area's state lands under its key,
// and a clash (a state key taken twice or by the infrastructure, a job name or a policy row
// declared twice) stops the start instead of one area silently replacing another's.
import { describe, expect, it } from 'bun:test'
import { AREAS } from '../../src/areas/index.ts'
import type { AnyArea } from '../../src/areas/area.ts'
import { areaPolicy, areaStates, jobFactories, routeFiles } from '../../src/areas/assemble.ts'
import { policyTable } from '../../src/http/policy.ts'
import { startTestServer } from '../helpers/server.ts'
import type { Infra } from '../../src/deps.ts'

const areas = AREAS as readonly AnyArea[]
const stateKeys = areas.filter((a) => a.state).map((a) => a.stateKey ?? a.name)

describe('the area list assembled', () => {
  it('gives every area with state its record in a started server, under its key', async () => {
    await using app = await startTestServer()
    const deps = app.deps as unknown as Record<string, unknown>
    for (const key of stateKeys) expect(typeof deps[key]).toBe('object')
    expect(stateKeys).toContain('archives')
    expect(stateKeys).toContain('searchState')
  })

  it('refuses a state key taken by the infrastructure or by another area', () => {
    const infra = { search: {} } as unknown as Infra
    const shadowing: AnyArea = { name: 'search', state: () => ({}) }
    expect(() => areaStates(infra, [shadowing])).toThrow('area search shadows a part of Deps')
    const twice: AnyArea[] = [
      { name: 'a', stateKey: 'same', state: () => ({}) },
      { name: 'b', stateKey: 'same', state: () => ({}) },
    ]
    expect(() => areaStates({} as Infra, twice)).toThrow('area b shadows a part of Deps')
  })

  it('refuses a job name declared by two areas', () => {
    const kind = () => ({ concurrency: 1, run: async () => null })
    const twice: AnyArea[] = [
      { name: 'a', jobs: { same: kind } },
      { name: 'b', jobs: { same: kind } },
    ]
    expect(() => jobFactories(twice)).toThrow('job kind same is declared twice')
    expect(Object.keys(jobFactories())).toContain('rescan')
  })

  it('refuses a policy row declared by two route files, and holds every area route file', () => {
    const row = { 'GET /x': { op: 'x', access: 'open' as const } }
    expect(() => policyTable([row, row])).toThrow('policy row GET /x is declared twice')
    const files = routeFiles()
    expect(files.length).toBe(areas.flatMap((a) => a.routes ?? []).length)
    expect(Object.keys(areaPolicy().rows).length).toBe(
      files.reduce((n, file) => n + Object.keys(file.policy).length, 0),
    )
  })
})
