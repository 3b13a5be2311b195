import { describe, expect, it } from 'bun:test'
import { AppError } from '../../src/errors.ts'
import {
  blockedReason,
  createAddressGuard,
  ipBytes,
  parseAllowEntry,
} from '../../src/net/address-guard.ts'

// Names resolve through this map only: the tests never ask a real resolver.
const resolver = (map: Record<string, string[]>) => async (host: string) => {
  const found = map[host]
  if (!found) throw new Error(`ENOTFOUND ${host}`)
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  return err as AppError
}

describe('blockedReason', () => {
  it('names the range of every private, loopback, link-local and special address', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'carrier-grade NAT'],
      ['169.254.1.1', 'link-local'],
      ['169.254.169.254', 'cloud metadata'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['fd12:3456::1', 'unique-local'],
      ['fd00:ec2::254', 'cloud metadata'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
      ['::ffff:a00:1', 'IPv4-mapped private'],
      ['::ffff:169.254.169.254', 'IPv4-mapped cloud metadata'],
      ['64:ff9b::7f00:1', 'NAT64 loopback'],
      ['2002:c0a8:101::1', '6to4 private'],
    ]
    for (const [address, reason] of cases)
      expect([address, blockedReason(address)]).toEqual([address, reason])
  })

  it('lets public addresses through', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect([address, blockedReason(address)]).toEqual([address, null])
  })

  it('parses IPv6 with a trailing dotted quad and refuses malformed literals', () => {
    expect(ipBytes('::ffff:1.2.3.4')?.slice(10)).toEqual([255, 255, 1, 2, 3, 4])
    expect(ipBytes('[::1]')?.[15]).toBe(1)
    for (const bad of ['1::2::3', '1.2.3', '256.1.1.1', 'example.com', '1:2:3:4:5:6:7:8:9'])
      expect([bad, ipBytes(bad)]).toEqual([bad, null])
  })
})

describe('createAddressGuard', () => {
  const guard = createAddressGuard({
    allowPrivate: [],
    resolve: resolver({
      'public.test': ['93.184.216.34'],
      'rebind.test': ['127.0.0.1'],
      'mixed.test': ['93.184.216.34', '10.1.2.3'],
      'v6loop.test': ['::1'],
    }),
  })

  it('returns the checked address of a public name', async () => {
    expect(await guard.check('public.test')).toEqual({
      host: 'public.test',
      address: '93.184.216.34',
      family: 4,
    })
  })

  it('refuses loopback, private and metadata literals and names', async () => {
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '::1',
      '169.254.169.254',
      '10.0.0.1',
      'localhost',
      'LOCALHOST.',
      'api.localhost',
      'metadata.google.internal',
      'rebind.test',
      'v6loop.test',
    ]) {
      const err = await refusal(guard.check(host))
      expect([host, err.code, err.extra?.reason]).toEqual([host, 'forbidden', 'private_address'])
    }
  })

  it('refuses a name when any of its addresses is private', async () => {
    const err = await refusal(guard.check('mixed.test'))
    expect(err.message).toContain('10.1.2.3')
  })

  it('reports a name that does not resolve as a bad request', async () => {
    const err = await refusal(guard.check('nowhere.test'))
    expect([err.code, err.extra?.reason]).toEqual(['bad_request', 'dns'])
  })

  it('lets listed names, wildcards, IPs and CIDRs through the allow list', async () => {
    const open = createAddressGuard({
      allowPrivate: ['rebind.test', '*.lan.test', '10.0.0.0/8', '::1'],
      resolve: resolver({
        'rebind.test': ['127.0.0.1'],
        'nas.lan.test': ['192.168.1.5'],
        'other.test': ['10.9.9.9'],
        'mapped.test': ['::ffff:10.1.1.1'],
      }),
    })
    expect((await open.check('rebind.test')).address).toBe('127.0.0.1')
    expect((await open.check('nas.lan.test')).address).toBe('192.168.1.5')
    expect((await open.check('other.test')).address).toBe('10.9.9.9')
    expect((await open.check('mapped.test')).address).toBe('::ffff:10.1.1.1')
    expect((await open.check('[::1]')).family).toBe(6)
    expect((await refusal(open.check('127.0.0.1'))).code).toBe('forbidden')
    expect((await refusal(open.check('lan.test'))).code).toBe('bad_request')
  })

  it('opens only the port of an entry that names one (host:port, [v6]:port, cidr:port)', async () => {
    const open = createAddressGuard({
      allowPrivate: ['127.0.0.1:8080', '[::1]:9090', 'nas.test:5000', '10.0.0.0/8:443', '::2'],
      resolve: resolver({ 'nas.test': ['192.168.1.5'] }),
    })
    expect((await open.check('127.0.0.1', undefined, 8080)).address).toBe('127.0.0.1')
    expect((await open.check('[::1]', undefined, 9090)).family).toBe(6)
    expect((await open.check('nas.test', undefined, 5000)).address).toBe('192.168.1.5')
    expect((await open.check('10.2.3.4', undefined, 443)).address).toBe('10.2.3.4')
    // A bare IPv6 address has no port: every port of ::2 is open.
    expect((await open.check('::2', undefined, 1)).family).toBe(6)
    for (const [host, port] of [
      ['127.0.0.1', 3000],
      ['127.0.0.1', undefined],
      ['::1', 8080],
      ['nas.test', 80],
      ['10.2.3.4', 80],
    ] as const) {
      const err = await refusal(open.check(host, undefined, port))
      expect([host, port, err.extra?.reason]).toEqual([host, port, 'private_address'])
    }
  })
})

describe('parseAllowEntry', () => {
  it('reads hosts, IPs and ranges with or without a port, and names a bad one', () => {
    const port = (text: string) => {
      const parsed = parseAllowEntry(text)
      return parsed.ok ? (parsed.entry.port ?? 'any') : parsed.reason
    }
    expect(port('127.0.0.1')).toBe('any')
    expect(port('127.0.0.1:8080')).toBe(8080)
    expect(port('[::1]:8080')).toBe(8080)
    expect(port('[::1]')).toBe('any')
    expect(port('::1')).toBe('any')
    expect(port('*.lan:80')).toBe(80)
    expect(port('127.0.0.1:0')).toContain('the port must be a number from 1 to 65535')
    expect(port('127.0.0.1:99999')).toContain('the port must be a number from 1 to 65535')
    expect(port('[::1]:')).toContain('the port must be')
    expect(port('10.0.0.0/33')).toContain("the range's prefix must be 0 to 32")
  })
})
