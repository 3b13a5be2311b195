// The message union between a WorkerPool and its workers, and the worker-side loop that serves it.
import { AppError, type ErrorCode } from '../errors.ts'

/** Host -> worker. */
export type HostMessage<Req> = { type: 'host:call'; id: number; request: Req }

/** Worker -> host. */
export type WorkerMessage<Res> =
  | { type: 'worker:ready' }
  | { type: 'worker:result'; id: number; result: Res }
  | { type: 'worker:error'; id: number; code: ErrorCode; message: string }

declare const self: Worker

/**
 * Runs inside a worker: answers each call with its result, or with the AppError code and message
 * (other errors become 'internal'), so the host can rethrow a real AppError.
 */
export function serveCalls<Req, Res>(handle: (request: Req) => Promise<Res>): void {
  const post = (message: WorkerMessage<Res>) => self.postMessage(message)
  self.onmessage = async (event: MessageEvent<HostMessage<Req>>) => {
    const { id, request } = event.data
    try {
      post({ type: 'worker:result', id, result: await handle(request) })
    } catch (err) {
      const code = err instanceof AppError ? err.code : 'internal'
      post({ type: 'worker:error', id, code, message: (err as Error)?.message ?? String(err) })
    }
  }
  post({ type: 'worker:ready' })
}
