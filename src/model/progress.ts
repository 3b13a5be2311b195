// How long-running domain work reports how far it got, without knowing who listens (a job, a test).

/** Called after each unit of work: `done` of `total` units so far. */
export type Progress = (done: number, total: number) => void
