// `#/archive/<id>`: one archive's page. Reading, downloading and its facts for everyone; editing,
// plugins, collections, cover and deletion for admins (ui/src/archive/).
import { useState } from 'preact/hooks'
import { api, apiUrl } from '../api.ts'
import { href, navigate } from '../router.ts'
import { loggedIn } from '../session.ts'
import { Cover } from '../components/cover.tsx'
import { notify, notifyError } from '../components/toast.tsx'
import { useApi } from '../components/use-api.ts'
import { usePageTitle } from '../components/page-title.ts'
import { isNew, type ArchiveMeta } from '../types.ts'
import { Details } from '../archive/details.tsx'
import { MetadataForm } from '../archive/metadata-form.tsx'
import { PluginRun } from '../archive/plugin-run.tsx'
import { Memberships } from '../archive/memberships.tsx'
import { CoverPicker } from '../archive/cover-picker.tsx'

export function ArchiveView({ parts }: { parts: string[] }) {
  const id = parts[0] ?? ''
  const enc = encodeURIComponent(id)
  const meta = useApi(() => api<ArchiveMeta>(`/api/archives/${enc}/metadata`), [id])
  const [editing, setEditing] = useState(false)
  const [picking, setPicking] = useState(false)
  const [confirming, setConfirming] = useState(false)
  // Bumped when the cover changes: a new URL, so no cached copy of the old one shows.
  const [coverVersion, setCoverVersion] = useState(0)
  usePageTitle(meta.data?.arcid === id ? meta.data.title : 'Archive')

  if (meta.error)
    return (
      <section>
        <p role="alert" class="error">
          {meta.error}
        </p>
        <a href="#/">Back to the library</a>
      </section>
    )
  const archive = meta.data
  if (!archive || archive.arcid !== id) return <p class="muted">Loading…</p>

  const remove = () =>
    api(`/api/archives/${enc}`, { method: 'DELETE' })
      .then(() => {
        notify(`Deleted “${archive.title}”.`)
        navigate(href([]))
      })
      .catch(notifyError)

  const admin = loggedIn.value
  const cover = apiUrl(`/api/archives/${enc}/thumbnail`, { v: coverVersion || undefined })
  return (
    <article class="archive-page stack">
      <div class="archive-head">
        <Cover key={cover} src={cover} alt={`Cover of ${archive.title}`} class="archive-cover" />
        <div class="stack archive-main">
          <h1>
            {archive.title}
            {isNew(archive.isnew) && <span class="archive-new">New</span>}
          </h1>
          <div class="row">
            <a class="button primary" href={href(['reader', id])}>
              Read
            </a>
            <a class="button" href={`/api/archives/${enc}/download`} download>
              Download
            </a>
            {admin && (
              <>
                <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                  Edit
                </button>
                <button type="button" aria-expanded={picking} onClick={() => setPicking(!picking)}>
                  Change cover
                </button>
                <button type="button" class="danger" onClick={() => setConfirming(true)}>
                  Delete
                </button>
              </>
            )}
          </div>
          {confirming && (
            <div class="card row" role="alertdialog" aria-label="Confirm deletion">
              <span>Delete this archive and its file for good?</span>
              <button type="button" class="danger" onClick={remove}>
                Delete for good
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </div>
          )}
          {editing ? (
            <MetadataForm
              archive={archive}
              onCancel={() => setEditing(false)}
              onSaved={() => {
                setEditing(false)
                meta.reload()
              }}
            />
          ) : (
            <Details archive={archive} />
          )}
        </div>
      </div>
      {admin && picking && (
        <CoverPicker
          id={id}
          pagecount={archive.pagecount}
          onChanged={() => setCoverVersion((v) => v + 1)}
        />
      )}
      {admin && <PluginRun archive={archive} onApplied={meta.reload} />}
      {admin && <Memberships id={id} />}
    </article>
  )
}
