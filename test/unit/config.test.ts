import { describe, expect, it } from 'bun:test'
import { basename, join } from 'node:path'
import { ConfigError, helpText, invokedAs, loadConfig, uploadLimitBytes } from '../../src/config.ts'
import { serverBodyCeiling } from '../../src/http/body-limit.ts'

const MiB = 1024 * 1024

describe('loadConfig: maxUploadMb', () => {
  it('defaults to 2048 MiB, reads TANKOBUN_MAX_UPLOAD_MB, and the flag wins', () => {
    expect(loadConfig({}, []).maxUploadMb).toBe(2048)
    expect(loadConfig({ TANKOBUN_MAX_UPLOAD_MB: '300' }, []).maxUploadMb).toBe(300)
    const both = loadConfig({ TANKOBUN_MAX_UPLOAD_MB: '300' }, ['--max-upload-mb', '4096'])
    expect(both.maxUploadMb).toBe(4096)
    expect(uploadLimitBytes(both)).toBe(4096 * MiB)
  })

  it('refuses a value that is not a positive whole number, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'lots']) {
      const load = () => loadConfig({ TANKOBUN_MAX_UPLOAD_MB: bad }, [])
      expect(load).toThrow(ConfigError)
      expect(load).toThrow('invalid setting TANKOBUN_MAX_UPLOAD_MB (--max-upload-mb)')
    }
  })

  it('lifts Bun’s own body cap past its 128 MB default, above the upload limit', () => {
    const config = loadConfig({}, [])
    expect(serverBodyCeiling(config)).toBeGreaterThan(uploadLimitBytes(config))
    expect(serverBodyCeiling(config)).toBeGreaterThan(128 * MiB)
  })
})

describe('loadConfig: folder flags', () => {
  it('--data and --content are the short spellings of --data-dir and --content-dir', () => {
    const short = loadConfig({}, ['--data', '/tmp/tkb-data', '--content=/tmp/tkb-content'])
    expect(short.dataDir).toBe('/tmp/tkb-data')
    expect(short.contentDir).toBe('/tmp/tkb-content')
    expect(short.dbPath).toBe('/tmp/tkb-data/db.sqlite')
    const long = loadConfig({ TANKOBUN_DATA_DIR: '/tmp/env' }, ['--data-dir', '/tmp/tkb-data'])
    expect(long.dataDir).toBe('/tmp/tkb-data')
    // The flag wins over the environment, whichever spelling.
    expect(loadConfig({ TANKOBUN_DATA_DIR: '/tmp/env' }, ['--data', '/tmp/x']).dataDir).toBe(
      '/tmp/x',
    )
    expect(() => loadConfig({}, ['--data'])).toThrow('flag --data needs a value')
    expect(() => loadConfig({}, ['--datadir', 'x'])).toThrow(ConfigError)
  })
})

describe('loadConfig: fetchAllowPrivate', () => {
  it('takes hosts, IPs and ranges with an optional port, and names a bad entry', () => {
    const env = { TANKOBUN_FETCH_ALLOW_PRIVATE: 'nas.lan, 127.0.0.1:8080,[::1]:9090, 10.0.0.0/8' }
    expect(loadConfig(env).fetchAllowPrivate).toEqual([
      'nas.lan',
      '127.0.0.1:8080',
      '[::1]:9090',
      '10.0.0.0/8',
    ])
    expect(() => loadConfig({ TANKOBUN_FETCH_ALLOW_PRIVATE: '127.0.0.1:70000' })).toThrow(
      'invalid setting TANKOBUN_FETCH_ALLOW_PRIVATE (--fetch-allow-private): 127.0.0.1:70000: the port must be a number from 1 to 65535',
    )
  })
})

describe('--help names the command the user ran', () => {
  const run = { compiled: false, argv0: 'bun', script: '/srv/app/src/main.ts', cwd: '/srv/app' }
  it('the binary by the path typed, npm start under npm, else runtime and script', () => {
    expect(invokedAs({ ...run, compiled: true, argv0: './tankobun', npmScript: undefined })).toBe(
      './tankobun',
    )
    expect(invokedAs({ ...run, npmScript: 'start' })).toBe('npm start --')
    expect(invokedAs({ ...run, npmScript: undefined })).toBe('bun src/main.ts')
    expect(invokedAs({ ...run, argv0: '/usr/local/bin/bun', npmScript: undefined })).toBe(
      'bun src/main.ts',
    )
    expect(helpText('./tankobun')).toStartWith('Usage: ./tankobun [flags]\n')
    expect(helpText('./tankobun')).not.toContain('npm')
  })

  it('the source tree run with bun prints its own usage line', async () => {
    const root = join(import.meta.dir, '..', '..')
    const proc = Bun.spawn([process.execPath, 'src/main.ts', '--help'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '' },
      stdout: 'pipe',
    })
    const out = await new Response(proc.stdout).text()
    expect(await proc.exited).toBe(0)
    // The runtime as started (bun, or bun.exe from the npm package).
    expect(out.split('\n')[0]).toBe(`Usage: ${basename(process.execPath)} src/main.ts [flags]`)
  })
})
