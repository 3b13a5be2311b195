// The messages between the server (host) and the sandbox process, over Node IPC with JSON
// serialization: bytes cross as base64 strings, or, past a few hundred KB, as a file the host
// wrote for the sandbox to read once and delete (no large string on either side's event loop).
// Tags are prefixed by their sender.

/** Per-run limits; the host fills every field. */
export type RunLimits = {
  /** V8 heap limit of the run's isolate. */
  memoryMb: number
  /** Longest synchronous stretch of plugin code (isolated-vm's own timeout). */
  syncTimeoutMs: number
  /** Wall-clock budget of the whole run, awaits included; past it the isolate is disposed. */
  wallMs: number
}

/** What a plugin's fetch asks for; the body is base64 when present. */
export type WireFetchInit = {
  method?: string
  headers?: [string, string][]
  body64?: string
}

/** Bytes from the host: inline as base64, or in a file of the host's sandbox folder. */
export type WireBytes = { body64: string } | { bodyFile: string }

export type WireFetchResponse = {
  status: number
  headers: [string, string][]
  url: string
} & WireBytes

/** The console method a log line came from. */
export type LogLevel = 'log' | 'info' | 'debug' | 'warn' | 'error'

/** Host -> sandbox. */
export type HostMessage =
  | {
      type: 'host:run'
      id: number
      /** Plain JavaScript ES module source (TypeScript is transpiled by the host). */
      source: string
      /** The original TypeScript: run with its types blanked out when it allows, so lines match. */
      typescript?: string
      /** The plugin's file as errors name it (`metadata/foo.ts`). */
      filename?: string
      /** The exported function to call: pluginInfo, execMetadata, execLogin, execDownload, runScript. */
      entry: string
      /** The JSON part of the plugin's ctx; `entry(name)` is added inside the isolate. */
      ctx: unknown
      limits: RunLimits
    }
  | {
      /** One plugin over many ctx's (Run Automatically over a batch of archives): one isolate, each
       * ctx in its own fresh context of it; each item is answered by its own 'sandbox:item'. */
      type: 'host:batch'
      id: number
      source: string
      typescript?: string
      filename?: string
      entry: string
      /** One ctx per item, answered by index. */
      ctxs: unknown[]
      /** memoryMb is the isolate's; syncTimeoutMs and wallMs apply to each item. */
      limits: RunLimits
    }
  | {
      type: 'host:fetch-result'
      id: number
      call: number
      response?: WireFetchResponse
      error?: string
    }
  | {
      type: 'host:library-result'
      id: number
      call: number
      /** The method's answer as JSON text. */
      json?: string
      error?: string
    }
  | {
      type: 'host:entry-result'
      id: number
      call: number
      /** The entry's bytes, null when the archive has no such entry. */
      bytes?: WireBytes | null
      error?: string
    }

/** One item of a batch ended: its result, or why it failed. */
export type ItemOutcome = { ok: true; result: unknown } | { ok: false; error: string }

/** Sandbox -> host. `item` names the batch item a call comes from (absent for a single run). */
export type SandboxMessage =
  | { type: 'sandbox:ready' }
  /** The process holds memory its runs could not give back (it stays well above its idle size
   * after a collection): the host replaces it once idle. */
  | { type: 'sandbox:spent' }
  | {
      type: 'sandbox:fetch'
      id: number
      item?: number
      call: number
      url: string
      init: WireFetchInit
    }
  | { type: 'sandbox:entry'; id: number; item?: number; call: number; name: string }
  /** A script plugin's `ctx.library` call; `args` is the JSON text of its arguments. */
  | {
      type: 'sandbox:library'
      id: number
      item?: number
      call: number
      method: string
      args: string
    }
  | { type: 'sandbox:log'; id: number; item?: number; level: LogLevel; message: string }
  | ({ type: 'sandbox:item'; id: number; item: number } & ItemOutcome)
  /** A run's end; a batch's end once every item was answered (ok false: none will be). */
  | { type: 'sandbox:done'; id: number; ok: true; result: unknown }
  | { type: 'sandbox:done'; id: number; ok: false; error: string }
