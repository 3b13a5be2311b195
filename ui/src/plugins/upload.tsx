// Installing a plugin: one .ts file, checked by the server in its sandbox before it is stored;
// one named like an uploaded plugin replaces it.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { notify } from '../components/toast.tsx'
import { ErrorText } from '../components/error-text.tsx'
import { useAction } from '../components/use-action.ts'
import { FileInput } from '../components/file-input.tsx'

export function PluginUpload({ onInstalled }: { onInstalled: (namespace: string) => void }) {
  const [file, setFile] = useState<File | null>(null)
  const { busy, error, run } = useAction()
  const [key, setKey] = useState(0)

  const send = (e: Event) => {
    e.preventDefault()
    if (!file) return
    run(async () => {
      const body = new FormData()
      body.append('file', file, file.name)
      const answer = await api<{
        namespace: string
        version: string
        previous_version: string | null
      }>('/api/plugins/upload', { method: 'POST', body })
      notify(
        answer.previous_version === null
          ? `Installed ${answer.namespace} v${answer.version}.`
          : `Replaced ${answer.namespace} v${answer.previous_version} with v${answer.version}.`,
      )
      setFile(null)
      setKey((k) => k + 1)
      onInstalled(answer.namespace)
    })
  }

  return (
    <form class="card stack" onSubmit={send} aria-labelledby="plugin-upload">
      <h2 id="plugin-upload">Install a plugin</h2>
      <p class="muted">
        A single TypeScript file, at most 1 MiB. A file named like an uploaded plugin replaces it
        (its settings stay).
      </p>
      <div class="row">
        <FileInput key={key} accept=".ts" label="Plugin file" onPick={setFile} />
        <button type="submit" class="primary" disabled={!file || busy}>
          {busy ? 'Checking…' : 'Upload plugin'}
        </button>
      </div>
      <ErrorText text={error} />
    </form>
  )
}
