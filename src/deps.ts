// Everything a route, job or domain function may use, built once by boot.ts (or a test):
// infrastructure, plus one state record per area under the area's name (src/areas/index.ts).
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { SettingsStore } from './domain/settings.ts'
import type { JobQueue } from './jobs/queue.ts'
import type { JobArgsByName } from './jobs/kinds/index.ts'
import type { SearchIndex } from './search/types.ts'
import type { EventBus } from './events.ts'
import type { ArchiveReader } from './archive/types.ts'
import type { Thumbnailer } from './images/types.ts'
import type { Locks } from './domain/locks.ts'
import type { WireCache } from './http/wire-cache.ts'
import type { PolicyTable } from './http/policy.ts'
import type { OutboundFetch } from './net/fetch.ts'
import type { SandboxHost } from './plugins/host.ts'
import type { PluginRunTag } from './plugins/manifest.ts'
import type { LlmClient } from './llm/client.ts'
import type { AreaStates } from './areas/index.ts'

/** What every area builds on: storage, the queue, the bus, workers, outbound clients. */
export type Infra = {
  config: Config
  db: Db
  settings: SettingsStore
  jobs: JobQueue<JobArgsByName>
  /** Committed library writes; the search area keeps the index current from them. */
  events: EventBus
  search: SearchIndex
  /** Archive search hits as wire JSON, each kept until its archive is written. */
  wireCache: WireCache
  reader: ArchiveReader
  thumbnailer: Thumbnailer
  /** The one outbound HTTP client (plugins, downloads): shared domain rules. */
  outbound: OutboundFetch
  /** The language-model provider (OpenAI-compatible); `configured()` false without a key. */
  llm: LlmClient
  /** The plugin sandbox (Node children started on the first run). */
  sandbox: SandboxHost<PluginRunTag>
  locks: Locks
  /** Every route's access policy: the union of the areas' route files' rows. */
  policy: PolicyTable
  /** Names this server among others in one process (the tests run several). */
  instanceId: string
  /** Server start, for /api/info and cache bookkeeping. */
  startedAt: number
}

export type Deps = Infra & AreaStates
