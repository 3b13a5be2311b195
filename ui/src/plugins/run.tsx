// Running a plugin: a metadata plugin on an archive picked by search; others with their one-shot
// argument (a download plugin's URL, a script's input). "Run now" shows the answer without writing
// anything; "Queue" runs it as a job (a metadata result is then applied) and shows its progress.
// Either way the run's log (the last lines the plugin printed) shows under it.
import { useEffect, useState } from 'preact/hooks'
import { api, request } from '../api.ts'
import { JobProgress } from '../components/job-progress.tsx'
import type { ArchiveMeta, SearchAnswer } from '../types.ts'
import type { Plugin } from './types.ts'
import { ErrorText } from '../components/error-text.tsx'
import { useAction } from '../components/use-action.ts'
import { RunLog, type RunLogLine } from './run-log.tsx'
import type { Job } from '../types.ts'

type UseAnswer = {
  success: 0 | 1
  type: string
  data: unknown
  error?: string
  log?: RunLogLine[]
}

function ArchivePicker({
  value,
  onPick,
}: {
  value: ArchiveMeta | null
  onPick: (a: ArchiveMeta) => void
}) {
  const [filter, setFilter] = useState('')
  const [found, setFound] = useState<ArchiveMeta[]>([])
  useEffect(() => {
    if (!filter.trim()) return setFound([])
    const timer = setTimeout(() => {
      api<SearchAnswer>('/api/search', { query: { filter, start: 0 } })
        .then((body) => setFound(body.data.slice(0, 8)))
        .catch(() => setFound([]))
    }, 250)
    return () => clearTimeout(timer)
  }, [filter])
  return (
    <div class="stack plugin-picker">
      <input
        type="search"
        aria-label="Search an archive to run on"
        placeholder="Search an archive…"
        value={filter}
        onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
      />
      {found.length > 0 && (
        <ul class="plugin-found" aria-label="Matching archives">
          {found.map((a) => (
            <li key={a.arcid}>
              <button
                type="button"
                aria-pressed={value?.arcid === a.arcid}
                onClick={() => {
                  onPick(a)
                  setFound([])
                }}
              >
                {a.title}
              </button>
            </li>
          ))}
        </ul>
      )}
      {value && <p>Archive: {value.title}</p>}
    </div>
  )
}

/** The answer as readable text: a metadata proposal field by field, anything else as JSON. */
function AnswerText({ answer }: { answer: UseAnswer }) {
  const data = answer.data as Record<string, unknown> | null
  if (answer.type === 'metadata' && data && typeof data === 'object')
    return (
      <dl class="plugin-answer">
        {(['new_tags', 'title', 'summary'] as const).map((key) =>
          data[key] ? (
            <>
              <dt key={`${key}-t`}>{key === 'new_tags' ? 'Tags' : key}</dt>
              <dd key={`${key}-d`}>{String(data[key])}</dd>
            </>
          ) : null,
        )}
      </dl>
    )
  return <pre class="plugin-answer">{JSON.stringify(answer.data, null, 2)}</pre>
}

export function RunPanel({ plugin }: { plugin: Plugin }) {
  const [archive, setArchive] = useState<ArchiveMeta | null>(null)
  const [arg, setArg] = useState('')
  const [answer, setAnswer] = useState<UseAnswer | null>(null)
  const [job, setJob] = useState<number | null>(null)
  const [jobLog, setJobLog] = useState<RunLogLine[] | undefined>(undefined)
  const { busy, error, run } = useAction()
  const needsArchive = plugin.type === 'metadata'
  const argLabel =
    plugin.oneshot_arg || (plugin.type === 'download' ? 'URL to download' : 'Argument (optional)')

  const query = () => ({
    plugin: plugin.namespace,
    id: archive?.arcid,
    arg: arg === '' ? undefined : arg,
  })
  const go = (how: 'use' | 'queue') =>
    run(async () => {
      setAnswer(null)
      setJob(null)
      setJobLog(undefined)
      if (how === 'use') {
        // Read as it is, not through api(): a failed run (`success: 0`) has a log to show too.
        const res = await request('/api/plugins/use', { method: 'POST', query: query() })
        const body = (await res.json()) as UseAnswer
        setAnswer(body)
        if (body.success === 0) throw new Error(body.error || 'The plugin failed.')
      } else
        setJob(
          (await api<{ job: number }>('/api/plugins/queue', { method: 'POST', query: query() }))
            .job,
        )
    })

  const blocked = busy || (needsArchive && !archive)
  return (
    <div class="stack plugin-run">
      <h4>Run</h4>
      {needsArchive && <ArchivePicker value={archive} onPick={setArchive} />}
      {plugin.type !== 'login' && (
        <label class="stack-label">
          {argLabel}
          <input value={arg} onInput={(e) => setArg((e.target as HTMLInputElement).value)} />
        </label>
      )}
      <div class="row">
        <button type="button" class="primary" disabled={blocked} onClick={() => go('use')}>
          Run now
        </button>
        <button type="button" disabled={blocked} onClick={() => go('queue')}>
          {needsArchive ? 'Queue and apply' : 'Queue as job'}
        </button>
      </div>
      {busy && <p class="muted">Running…</p>}
      <ErrorText text={error} />
      {answer?.success === 1 && <AnswerText answer={answer} />}
      {answer && <RunLog log={answer.log} />}
      {job !== null && (
        <JobProgress
          id={job}
          label={`${plugin.name} run`}
          onEnd={(ended: Job) => setJobLog((ended.result as { log?: RunLogLine[] } | null)?.log)}
        />
      )}
      <RunLog log={jobLog} />
    </div>
  )
}
