// How long-running domain work reports how far it got, without knowing who listens (a job, a test).

/** Called after each unit of work: `done` of `total` units so far. */
export type Progress = (done: number, total: number) => void

/** What a download reports of its transfer, each field once known (JobStatus's transfer fields). */
export type TransferFields = {
  downloadedBytes?: number
  totalBytes?: number
  rateLimitBytesPerSec?: number
  rateLimitMatchedPattern?: string
}
