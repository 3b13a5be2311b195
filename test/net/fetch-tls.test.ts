import { describe, expect, it } from 'bun:test'
import { AppError } from '../../src/errors.ts'
import { createOutboundFetch } from '../../src/net/fetch.ts'

// A self-signed certificate for pinned.test, valid 2000-2100. Written out because CI has no tool
// to make one (only Node and npm); it protects nothing but this test's loopback server.
const CERT = `
-----BEGIN CERTIFICATE-----
MIIBZzCCAQ2gAwIBAgIBATAKBggqhkjOPQQDAjAWMRQwEgYDVQQDDAtwaW5uZWQu
dGVzdDAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowFjEUMBIGA1UE
AwwLcGlubmVkLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARVegeHLwye
unRHC3BUq3uNTG0wwcjLLo/lusp7Xw9zs7Ebzcmlk5Y5OAYVKHYOdGlNkB7eHrxH
kez4ziI6HtTuo0owSDAPBgNVHRMBAf8EBTADAQH/MBYGA1UdEQQPMA2CC3Bpbm5l
ZC50ZXN0MB0GA1UdDgQWBBRoWcPhU5eowS7z+4PL2aFys+6ARjAKBggqhkjOPQQD
AgNIADBFAiEAgCoq307+hp34PIGyheLtUb75FyyXEjq0K5wHkardqFQCIFxKftMg
FP/GrEvuVjMPoTlpNdgZG5nHlbchWpISeCCG
-----END CERTIFICATE-----
`
const KEY = `
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgTzrDbR/rsXOSZcto
SsT6xKA85Gbw4Ce+dvme+n6cpzKhRANCAARVegeHLwyeunRHC3BUq3uNTG0wwcjL
Lo/lusp7Xw9zs7Ebzcmlk5Y5OAYVKHYOdGlNkB7eHrxHkez4ziI6HtTu
-----END PRIVATE KEY-----
`

describe('fetchOutbound over https', () => {
  it('connects to the checked address and still verifies the certificate against the name', async () => {
    using server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      tls: { cert: CERT, key: KEY },
      fetch: (req) => new Response(req.headers.get('host')),
    })
    const { fetchOutbound } = createOutboundFetch({
      allowPrivate: ['*.test'],
      maxResponseBytes: 1024,
      timeoutMs: 5000,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      trustedCa: CERT,
    })
    const res = await fetchOutbound(`https://pinned.test:${server.port}/`)
    expect(new TextDecoder().decode(res.body)).toBe(`pinned.test:${server.port}`)
    expect(res.url).toBe(`https://pinned.test:${server.port}/`)

    // The same address under a name the certificate does not carry is refused by TLS.
    const err = await fetchOutbound(`https://other.test:${server.port}/`).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect([(err as AppError).extra?.reason, (err as AppError).message]).toEqual([
      'network',
      expect.stringContaining('ERR_TLS_CERT_ALTNAME_INVALID'),
    ])
  })
})
