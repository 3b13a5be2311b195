// A job failure that keeps a result: the job ends `failed` with this error, and its result (what
// the run had to say, e.g. a plugin's run log) is stored as for a finished job.
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly result: unknown,
  ) {
    super(message)
  }
}
