// Everything a route, job or domain function may use, built once by main.ts (or a test).
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
import type { UploadsInFlight } from './domain/archives/upload.ts'
import type { Placement } from './domain/archives/placement.ts'
import type { UnreadableFiles } from './domain/archives/scan.ts'
import type { DimensionCache } from './domain/archives/pages.ts'
import type { LoginThrottle } from './domain/auth/login-throttle.ts'
import type { SessionKeys } from './domain/auth/sessions.ts'
import type { ContentSync } from './domain/archives/content-sync.ts'
import type { WireCache } from './http/wire-cache.ts'
import type { OutboundFetch } from './net/fetch.ts'
import type { DownloadRuntime } from './domain/downloads/runtime.ts'
import type { SandboxHost } from './plugins/host.ts'
import type { PluginRunTag } from './plugins/manifest.ts'
import type { PluginRegistry } from './plugins/registry.ts'
import type { ComparisonCache } from './domain/downloads/compare-cache.ts'
import type { GenerationStore } from './domain/wizard/generations.ts'
import type { LlmClient } from './llm/client.ts'

export type Deps = {
  config: Config
  db: Db
  settings: SettingsStore
  jobs: JobQueue<JobArgsByName>
  search: SearchIndex
  /** Archive search hits as wire JSON, each kept until its archive is written. */
  wireCache: WireCache
  /** Committed library writes; the search index subscribes (domain/search/index-sync.ts). */
  events: EventBus
  reader: ArchiveReader
  thumbnailer: Thumbnailer
  /** The one outbound HTTP client (plugins, downloads): shared domain rules. */
  outbound: OutboundFetch
  /** The language-model provider (OpenAI-compatible); `configured()` false without a key. */
  llm: LlmClient
  /** The plugin sandbox (a Node child started on the first run). */
  sandbox: SandboxHost<PluginRunTag>
  /** Installed plugins found at start (in the background); `ready()` waits for them. */
  plugins: PluginRegistry
  locks: Locks
  uploads: UploadsInFlight
  /** Serializes giving files their final name in the content folder (rename, upload). */
  placement: Placement
  /** Files the scan could not read, not retried while unchanged. */
  unreadable: UnreadableFiles
  /** Natural page sizes already measured. */
  dimensions: DimensionCache
  loginThrottle: LoginThrottle
  sessionKeys: SessionKeys
  /** Content-folder sync (scan, watcher); boot starts it once jobs are registered. */
  contentSync: ContentSync
  /** Page comparisons of download queue items, kept while both files are unchanged. */
  comparisons: ComparisonCache
  /** The download queue's in-memory side: stop tokens, running jobs, metadata previews. */
  downloads: DownloadRuntime
  /** The plugin wizard's started generations, each waiting for its single-use stream. */
  generations: GenerationStore
  /** Server start, for /api/info and cache bookkeeping. */
  startedAt: number
}
