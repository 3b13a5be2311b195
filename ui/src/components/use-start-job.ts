// Queuing a background job: the `{job}` id the server answers, for a JobProgress, or why it was
// refused. Starting again forgets the previous job.
import { useState } from 'preact/hooks'
import { useAction } from './use-action.ts'

export function useStartJob() {
  const [job, setJob] = useState<number | null>(null)
  const { error, run } = useAction()
  const start = (send: () => Promise<{ job: number }>) => {
    setJob(null)
    return run(async () => setJob((await send()).job))
  }
  return { job, error, start }
}
