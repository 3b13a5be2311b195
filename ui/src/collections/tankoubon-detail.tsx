// One Tankoubon (`#/tankoubons/<id>`): name, summary and tags, the ordered members (reorder, add,
// remove). Edits are a draft until "Save changes" sends them in one PUT.
import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { href, navigate } from '../router.ts'
import { loggedIn } from '../session.ts'
import { useApi } from '../components/use-api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import { TagList } from '../components/tags.tsx'
import type { ArchiveMeta, Tankoubon } from '../types.ts'
import { MemberList } from './member-list.tsx'
import { AddMember } from './add-member.tsx'
import { ErrorText } from '../components/error-text.tsx'
import { ConfirmDeletion } from '../components/confirm.tsx'

type Full = { result: Tankoubon & { full_data: ArchiveMeta[] } }
type Draft = { name: string; summary: string; tags: string; members: ArchiveMeta[] }

export function TankoubonDetail({ id }: { id: string }) {
  const path = `/api/tankoubons/${encodeURIComponent(id)}`
  const loaded = useApi(() => api<Full>(`${path}/full`, { query: { page: -1 } }), [id])
  const [draft, setDraft] = useState<Draft | null>(null)
  const [dirty, setDirty] = useState(false)
  const [saving, setSaving] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const admin = loggedIn.value

  useEffect(() => {
    const tank = loaded.data?.result
    if (!tank) return
    setDraft({
      name: tank.name,
      summary: tank.summary ?? '',
      tags: tank.tags ?? '',
      members: tank.full_data,
    })
    setDirty(false)
  }, [loaded.data])

  if (loaded.error)
    return (
      <section class="stack">
        <h1>Tankoubon</h1>
        <ErrorText text={loaded.error} />
        <a href={href(['tankoubons'])}>All Tankoubons</a>
      </section>
    )
  if (!draft) return <p class="muted">Loading…</p>

  const change = (part: Partial<Draft>) => {
    setDraft({ ...draft, ...part })
    setDirty(true)
  }
  const save = async () => {
    setSaving(true)
    try {
      await api(path, {
        method: 'PUT',
        json: {
          archives: draft.members.map((m) => m.arcid),
          metadata: { name: draft.name.trim(), summary: draft.summary, tags: draft.tags },
        },
      })
      notify('Saved')
      loaded.reload()
    } catch (e) {
      notifyError(e)
    } finally {
      setSaving(false)
    }
  }
  const remove = async () => {
    try {
      await api(path, { method: 'DELETE' })
      notify(`Deleted ${draft.name}`)
      navigate(href(['tankoubons']))
    } catch (e) {
      notifyError(e)
    }
  }
  const input = (e: Event) => (e.target as HTMLInputElement).value

  return (
    <section class="stack tank-detail">
      <nav class="row">
        <a href={href(['tankoubons'])}>All Tankoubons</a>
        {draft.members.length > 0 && (
          <a class="button primary" href={href(['reader', id])}>
            Read
          </a>
        )}
      </nav>
      <h1>{loaded.data?.result.name || id}</h1>
      {!admin && (
        <>
          {draft.summary && <p>{draft.summary}</p>}
          <TagList tags={draft.tags} />
        </>
      )}
      {admin && (
        <div class="card stack">
          <label class="stack-label">
            Name
            <input value={draft.name} onInput={(e) => change({ name: input(e) })} />
          </label>
          <label class="stack-label">
            Summary
            <textarea
              rows={3}
              value={draft.summary}
              onInput={(e) => change({ summary: input(e) })}
            />
          </label>
          <label class="stack-label">
            Tags (comma separated)
            <input value={draft.tags} onInput={(e) => change({ tags: input(e) })} />
          </label>
        </div>
      )}
      <h2>Members</h2>
      {draft.members.length === 0 && <p class="muted">No archives yet.</p>}
      {admin ? (
        <MemberList members={draft.members} onChange={(members) => change({ members })} />
      ) : (
        <ol class="tank-members">
          {draft.members.map((m) => (
            <li key={m.arcid}>
              <a href={href(['archive', m.arcid])}>{m.title || m.filename}</a>
            </li>
          ))}
        </ol>
      )}
      {admin && (
        <>
          <div class="row tank-save">
            <button type="button" class="primary" disabled={!dirty || saving} onClick={save}>
              Save changes
            </button>
            {dirty && <span class="muted">Unsaved changes</span>}
            {dirty && (
              <button type="button" onClick={() => loaded.reload()}>
                Discard
              </button>
            )}
          </div>
          <h2>Add archives</h2>
          <AddMember
            memberIds={new Set(draft.members.map((m) => m.arcid))}
            onAdd={(archive) => change({ members: [...draft.members, archive] })}
          />
          <div class="row">
            {!confirming ? (
              <button type="button" class="danger" onClick={() => setConfirming(true)}>
                Delete Tankoubon
              </button>
            ) : (
              <ConfirmDeletion
                question="Delete this Tankoubon? Its archives stay in the library."
                onConfirm={remove}
                onCancel={() => setConfirming(false)}
              />
            )}
          </div>
        </>
      )}
    </section>
  )
}
