// The command line of `npm run plugin`: check|run, the plugin file and the run's options, read
// relative to the folder the author ran it from (npm runs scripts in the repo, INIT_CWD is theirs).
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { isArchiveId } from '../model/ids.ts'

export const USAGE = `Usage:
  npm run plugin -- check <file.ts>
      reads pluginInfo() in the sandbox, checks it and the exported hook, and type-checks the file
      against the SDK (plugins/sdk.d.ts); errors are file:line:col
  npm run plugin -- run <file.ts> [options]
      runs the plugin's entry for its type and prints its result, its log and its fetches
      --archive FILE|ID  an archive file (cbz, zip, cbr, cb7, tar), or the id of an archive in the
                         server's database (TANKOBUN_DATA_DIR, default ./data): ctx.archive and
                         ctx.entry() read it
      --url URL          ctx.url (download plugins), also the one-shot argument when --oneshot is absent
      --oneshot TEXT     ctx.oneshot
      --arg name=value   a parameter's value in ctx.args (repeatable)
      --timeout MS       the run's wall clock (default 30000, 100 to 600000)
      --login FILE       a login plugin: its execLogin() runs first and this run fetches with its
                         cookies and headers, as with login_from on the server
      --login-arg name=value   a parameter of the login plugin (repeatable)
  Private hosts (a local test site) need TANKOBUN_FETCH_ALLOW_PRIVATE, as for the server.
`

export class UsageError extends Error {}

export type CliArgs = {
  command: 'check' | 'run'
  /** Absolute. */
  file: string
  url?: string
  archive?: string
  oneshot: string | null
  args: Record<string, string>
  timeoutMs?: number
  login?: string
  loginArgs: Record<string, string>
}

function pair(flag: string, value: string, into: Record<string, string>): void {
  const at = value.indexOf('=')
  if (at <= 0) throw new UsageError(`${flag} takes name=value, not ${value}`)
  into[value.slice(0, at)] = value.slice(at + 1)
}

export function parseArgs(argv: string[], cwd: string): CliArgs {
  const [command, file, ...rest] = argv
  if (command !== 'check' && command !== 'run') throw new UsageError('say check or run')
  if (!file) throw new UsageError('name the plugin file')
  const parsed: CliArgs = {
    command,
    file: resolve(cwd, file),
    oneshot: null,
    args: {},
    loginArgs: {},
  }
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i]!
    const value = rest[i + 1]
    if (value === undefined) throw new UsageError(`${flag} needs a value`)
    if (flag === '--url') parsed.url = value
    else if (flag === '--archive') parsed.archive = resolveIfFile(cwd, value)
    else if (flag === '--oneshot') parsed.oneshot = value
    else if (flag === '--arg') pair(flag, value, parsed.args)
    else if (flag === '--login') parsed.login = resolve(cwd, value)
    else if (flag === '--login-arg') pair(flag, value, parsed.loginArgs)
    else if (flag === '--timeout') {
      const ms = Number(value)
      if (!Number.isInteger(ms) || ms < 100 || ms > 600_000)
        throw new UsageError(`--timeout takes milliseconds from 100 to 600000, not ${value}`)
      parsed.timeoutMs = ms
    } else throw new UsageError(`unknown option ${flag}`)
  }
  return parsed
}

/** An archive id (with no file of that name) stays as it is; anything else is a path. */
const resolveIfFile = (cwd: string, value: string) =>
  isArchiveId(value) && !existsSync(resolve(cwd, value)) ? value : resolve(cwd, value)
