// Running a metadata plugin on this archive without applying it (POST /api/plugins/use), then
// applying only what the user ticks: new tags (checked by default), title, summary.
import { useState } from 'preact/hooks'
import { api, messageOf } from '../api.ts'
import { splitTags, TagChip } from '../components/tags.tsx'
import { notify, notifyError } from '../components/toast.tsx'
import { useApi } from '../components/use-api.ts'
import type { ArchiveMeta, MetadataProposal, PluginInfo } from '../types.ts'
import { saveMetadata } from './metadata-form.tsx'

type Proposal = {
  /** Proposed tags the archive lacks (compared without case), and those it has already. */
  added: string[]
  kept: string[]
  title?: string
  summary?: string
}

function diff(archive: ArchiveMeta, data: MetadataProposal): Proposal {
  const have = new Set(splitTags(archive.tags).map((t) => t.toLowerCase()))
  const proposed = [...new Set(splitTags(data.new_tags))]
  const title = data.title?.trim()
  const summary = data.summary?.trim()
  return {
    added: proposed.filter((t) => !have.has(t.toLowerCase())),
    kept: proposed.filter((t) => have.has(t.toLowerCase())),
    title: title && title !== archive.title ? title : undefined,
    summary: summary && summary !== (archive.summary ?? '') ? summary : undefined,
  }
}

type Props = { archive: ArchiveMeta; onApplied: () => void }

export function PluginRun({ archive, onApplied }: Props) {
  const plugins = useApi(() => api<PluginInfo[]>('/api/plugins/metadata'), [])
  const [chosen, setChosen] = useState('')
  const [arg, setArg] = useState('')
  const [running, setRunning] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [proposal, setProposal] = useState<Proposal | null>(null)
  const [picked, setPicked] = useState<Set<string>>(new Set())
  const [takeTitle, setTakeTitle] = useState(true)
  const [takeSummary, setTakeSummary] = useState(true)

  const list = plugins.data ?? []
  const plugin = list.find((p) => p.namespace === chosen) ?? list[0]

  const run = (e: Event) => {
    e.preventDefault()
    if (!plugin) return
    setRunning(true)
    setError(null)
    setProposal(null)
    api<{ data: MetadataProposal }>('/api/plugins/use', {
      method: 'POST',
      query: { plugin: plugin.namespace, id: archive.arcid, arg: arg || undefined },
    })
      .then(({ data }) => {
        const found = diff(archive, data)
        setProposal(found)
        setPicked(new Set(found.added))
        setTakeTitle(true)
        setTakeSummary(true)
      })
      .catch((err) => setError(messageOf(err)))
      .finally(() => setRunning(false))
  }

  const apply = () => {
    if (!proposal) return
    const tags = [...splitTags(archive.tags), ...proposal.added.filter((t) => picked.has(t))]
    saveMetadata(archive.arcid, {
      tags,
      title: proposal.title && takeTitle ? proposal.title : undefined,
      summary: proposal.summary && takeSummary ? proposal.summary : undefined,
    })
      .then(() => {
        notify('Plugin results applied.')
        setProposal(null)
        onApplied()
      })
      .catch(notifyError)
  }

  const toggle = (tag: string) => {
    const next = new Set(picked)
    if (next.has(tag)) next.delete(tag)
    else next.add(tag)
    setPicked(next)
  }

  const nothing = proposal && !proposal.added.length && !proposal.title && !proposal.summary

  return (
    <section class="card stack" aria-labelledby="plugin-run-title">
      <h2 id="plugin-run-title">Metadata plugins</h2>
      {plugins.error && (
        <p role="alert" class="error">
          {plugins.error}
        </p>
      )}
      <form class="row" onSubmit={run}>
        <label>
          Plugin
          <select
            aria-label="Plugin to run"
            value={plugin?.namespace ?? ''}
            onChange={(e) => setChosen((e.currentTarget as HTMLSelectElement).value)}
          >
            {list.map((p) => (
              <option key={p.namespace} value={p.namespace}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        {plugin?.oneshot_arg && (
          <label>
            {plugin.oneshot_arg}
            <input
              value={arg}
              onInput={(e) => setArg((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
        )}
        <button type="submit" disabled={!plugin || running}>
          {running ? 'Running…' : 'Run plugin'}
        </button>
      </form>
      {plugin?.description && <p class="muted">{plugin.description}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {nothing && <p>The plugin found nothing new.</p>}
      {proposal && !nothing && (
        <div class="stack plugin-proposal" aria-label="Plugin results">
          {proposal.added.length > 0 && (
            <fieldset>
              <legend>New tags</legend>
              <div class="tags">
                {proposal.added.map((tag) => (
                  <label key={tag} class="proposal-tag">
                    <input
                      type="checkbox"
                      aria-label={`Add tag ${tag}`}
                      checked={picked.has(tag)}
                      onChange={() => toggle(tag)}
                    />
                    <TagChip tag={tag} link={false} />
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {proposal.kept.length > 0 && (
            <p class="muted">Already there: {proposal.kept.join(', ')}</p>
          )}
          {proposal.title && (
            <label>
              <input
                type="checkbox"
                checked={takeTitle}
                onChange={() => setTakeTitle(!takeTitle)}
              />
              <span>
                Title: <del>{archive.title}</del> <ins>{proposal.title}</ins>
              </span>
            </label>
          )}
          {proposal.summary && (
            <label>
              <input
                type="checkbox"
                checked={takeSummary}
                onChange={() => setTakeSummary(!takeSummary)}
              />
              <span>
                Summary: <ins>{proposal.summary}</ins>
              </span>
            </label>
          )}
          <div class="row">
            <button type="button" class="primary" onClick={apply}>
              Apply selected
            </button>
            <button type="button" onClick={() => setProposal(null)}>
              Discard
            </button>
          </div>
        </div>
      )}
    </section>
  )
}
