// The bar under the grid while archives are selected: add them to a category, add or remove tags,
// queue a metadata plugin on each (its result applied), delete them. Says how far a change has got and what it changed; a failure names the first
// refusal and the archives it left unchanged.
import { useState } from 'preact/hooks'
import { splitTags } from '../components/tags.tsx'
import { ConfirmButton } from '../components/confirm.tsx'
import { CategorySelect } from '../components/category-select.tsx'
import { notify } from '../components/toast.tsx'
import { useApi } from '../components/use-api.ts'
import { api } from '../api.ts'
import type { Category, PluginInfo } from '../types.ts'
import { addToCategory, changeTags, deleteArchives, queuePlugin, type BulkOutcome } from './bulk.ts'

type Props = {
  ids: string[]
  categories: Category[]
  onClear: () => void
  /** After a change: the grid asks for its results again. */
  onChanged: (deleted: boolean) => void
}

const plural = (n: number) => `${n} ${n === 1 ? 'archive' : 'archives'}`

export function BulkBar({ ids, categories, onClear, onChanged }: Props) {
  const [category, setCategory] = useState('')
  const [tags, setTags] = useState('')
  const plugins = useApi(() => api<PluginInfo[]>('/api/plugins/metadata'), [])
  const [plugin, setPlugin] = useState('')
  const chosenPlugin = plugin || plugins.data?.[0]?.namespace || ''
  const [progress, setProgress] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const busy = progress !== null

  const run = async (what: string, work: (tick: (n: number) => void) => Promise<BulkOutcome>) => {
    setError(null)
    setProgress(`${what}: 0 / ${ids.length}`)
    try {
      const outcome = await work((n) => setProgress(`${what}: ${n} / ${ids.length}`))
      if (outcome.failed > 0)
        setError(`${plural(outcome.failed)} not changed: ${outcome.error ?? 'refused'}`)
      if (outcome.done > 0) notify(`${what}: ${plural(outcome.done)} done.`)
      return outcome
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
      return null
    } finally {
      setProgress(null)
    }
  }

  const typed = splitTags(tags)
  const withTags = async (add: boolean) => {
    const outcome = await run(add ? 'Adding tags' : 'Removing tags', (tick) =>
      changeTags(ids, add ? { add: typed, remove: [] } : { add: [], remove: typed }, tick),
    )
    if (outcome?.done) {
      setTags('')
      onChanged(false)
    }
  }

  return (
    <section class="lib-bulk card" aria-label="Selected archives">
      <div class="row">
        <strong aria-live="polite">{plural(ids.length)} selected</strong>
        <button type="button" onClick={onClear} disabled={busy}>
          Clear selection
        </button>
      </div>
      <div class="row">
        <CategorySelect
          label="Category"
          categories={categories}
          value={category}
          onChange={setCategory}
        />
        <button
          type="button"
          disabled={busy || !category || ids.length === 0}
          onClick={async () => {
            const outcome = await run('Adding to the category', (tick) =>
              addToCategory(ids, category, tick),
            )
            if (outcome?.done) onChanged(false)
          }}
        >
          Add to category
        </button>
      </div>
      <div class="row">
        <label class="stack-label">
          Tags (comma-separated)
          <input
            type="text"
            value={tags}
            placeholder="artist:name, language:english"
            onInput={(e) => setTags((e.target as HTMLInputElement).value)}
          />
        </label>
        <button
          type="button"
          disabled={busy || typed.length === 0 || ids.length === 0}
          onClick={() => withTags(true)}
        >
          Add tags
        </button>
        <button
          type="button"
          disabled={busy || typed.length === 0 || ids.length === 0}
          onClick={() => withTags(false)}
        >
          Remove tags
        </button>
      </div>
      <div class="row">
        <label class="stack-label">
          Metadata plugin
          <select
            value={chosenPlugin}
            onChange={(e) => setPlugin((e.target as HTMLSelectElement).value)}
          >
            {(plugins.data ?? []).map((p) => (
              <option key={p.namespace} value={p.namespace}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={busy || !chosenPlugin || ids.length === 0}
          onClick={() =>
            run('Queueing the plugin', (tick) => queuePlugin(ids, chosenPlugin, tick)).then(
              (outcome) => outcome?.done && notify('The Jobs page follows the runs.'),
            )
          }
        >
          Run plugin
        </button>
      </div>
      <div class="row">
        <ConfirmButton
          danger
          disabled={busy || ids.length === 0}
          question={`Delete ${plural(ids.length)} and their files?`}
          onConfirm={async () => {
            const outcome = await run('Deleting', () => deleteArchives(ids))
            if (outcome?.done) onChanged(true)
          }}
        >
          Delete
        </ConfirmButton>
      </div>
      {progress && (
        <p class="muted" role="status">
          {progress}
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
