// A plugin run's log as the server keeps it (the last lines, secrets blanked): one line per
// console call, its level shown when it is not a plain log.
export type RunLogLine = { level: string; message: string }

export function RunLog({ log }: { log: RunLogLine[] | undefined }) {
  if (!log || log.length === 0) return null
  return (
    <details class="plugin-log" open>
      <summary>Run log ({log.length} lines)</summary>
      <pre aria-label="Run log">
        {log
          .map((line) => (line.level === 'log' ? line.message : `${line.level}: ${line.message}`))
          .join('\n')}
      </pre>
    </details>
  )
}
