// A maintenance task that the server runs as a job (`{job}` answer) or answers at once (Env with a
// message or counts): a button, optionally confirmed, then the job's progress or the answer.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { JobProgress } from '../components/job-progress.tsx'
import type { Job } from '../types.ts'
import { ConfirmButton } from '../components/confirm.tsx'
import { ErrorText } from '../components/error-text.tsx'
import { useAction } from '../components/use-action.ts'

type Answer = { job?: number; successMessage?: string; [key: string]: unknown }

type Props = {
  title: string
  description: ComponentChildren
  button: string
  path: string
  method?: string
  query?: Record<string, string>
  /** Asks this before running (destructive tasks). */
  confirm?: string
  danger?: boolean
  onEnd?: (job: Job) => void
  /** Called after an immediate (non-job) answer. */
  onAnswer?: () => void
}

/** Counts and messages of an immediate answer, without the envelope's own fields. */
function summary(answer: Answer): string {
  if (answer.successMessage) return answer.successMessage
  const rest = Object.entries(answer).filter(
    ([key]) => !['operation', 'success', 'error', 'job'].includes(key),
  )
  return rest.length ? rest.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ') : 'Done.'
}

export function JobAction(props: Props) {
  const [job, setJob] = useState<number | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const { error, run: send } = useAction()

  const run = () =>
    send(async () => {
      setDone(null)
      setJob(null)
      const answer = await api<Answer>(props.path, {
        method: props.method ?? 'POST',
        query: props.query,
      })
      if (typeof answer?.job === 'number') setJob(answer.job)
      else {
        setDone(summary(answer ?? {}))
        props.onAnswer?.()
      }
    })

  return (
    <div class="card stack maint-task">
      <h3>{props.title}</h3>
      <p class="muted">{props.description}</p>
      <div class="row">
        {props.confirm ? (
          <ConfirmButton question={props.confirm} onConfirm={run} danger={props.danger}>
            {props.button}
          </ConfirmButton>
        ) : (
          <button type="button" onClick={run}>
            {props.button}
          </button>
        )}
      </div>
      {job !== null && <JobProgress id={job} label={props.title} onEnd={props.onEnd} />}
      {done && <p role="status">{done}</p>}
      <ErrorText text={error} />
    </div>
  )
}
