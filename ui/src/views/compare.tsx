// Compare (`#/compare/<queue item id>`): a download whose file name is taken (side a) against the
// library's archive (side b), page by page: aligned pairs side by side with their sharpness, the
// pages only one side has to pick for a patch, and the two answers that carry the picks over.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { href, navigate } from '../router.ts'
import { useApi } from '../components/use-api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import { useComparison } from '../downloads/compare-stream.ts'
import type { ComparePair, DownloadItem, UnmatchedPage } from '../downloads/types.ts'
import { ErrorText } from '../components/error-text.tsx'

const RECOMMENDATION: Record<string, string> = {
  keep_a: 'Replace the library copy with the download',
  keep_a_with_insertions: 'Replace the library copy with the download, keeping its extra pages',
  keep_b: 'Keep the library copy',
  keep_b_with_insertions: 'Keep the library copy and add the download’s extra pages',
  different: 'These look like different books: keep both under different names',
}

type Side = 'a' | 'b'

const plural = (n: number) => `${n} picked ${n === 1 ? 'page' : 'pages'}`

export function CompareView({ parts }: { parts: string[] }) {
  const id = parts[0] ?? ''
  const base = `/api/download_queue/${encodeURIComponent(id)}`
  const queue = useApi(() => api<{ items: DownloadItem[] }>('/api/download_queue'), [id])
  const item = queue.data?.items.find((i) => i.id === id)
  const comparison = useComparison(id)
  const { result, pairs } = comparison
  const [pickedA, setPickedA] = useState<Set<number>>(new Set())
  const [pickedB, setPickedB] = useState<Set<number>>(new Set())
  const [busy, setBusy] = useState(false)

  const pageUrl = (side: Side, index: number) => `${base}/compare/page?side=${side}&index=${index}`
  const insertions = (pages: UnmatchedPage[], picked: Set<number>, key: 'a_index' | 'b_index') =>
    pages
      .filter((p) => picked.has(p.index))
      .map((p) => ({
        [key]: p.index,
        after_filename: p.after_filename,
        before_filename: p.before_filename,
      }))

  const finish = async (action: 'keep-b' | 'overwrite') => {
    if (!result) return
    setBusy(true)
    try {
      const answer =
        action === 'keep-b'
          ? await api<{ archive_id: string }>(`${base}/compare/keep-b`, {
              method: 'POST',
              json: { insertions: insertions(result.unmatched_a, pickedA, 'a_index') },
            })
          : await api<{ state: string; archive_id?: string }>(`${base}/overwrite`, {
              method: 'POST',
              json: { insertions: insertions(result.unmatched_b, pickedB, 'b_index') },
            })
      notify(action === 'keep-b' ? 'Kept the library copy' : 'Replaced with the download')
      navigate(answer.archive_id ? href(['archive', answer.archive_id]) : href(['downloads']))
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  const conflict = item?.pending_filename_conflict
  return (
    <section class="stack compare">
      <nav class="row">
        <a href={href(['downloads'])}>Download queue</a>
        {conflict?.existing_id && (
          <a href={href(['archive', conflict.existing_id])}>Library copy</a>
        )}
      </nav>
      <h1>Compare {conflict ? conflict.filename : 'download'}</h1>
      <p class="muted">
        Left: the download. Right: the archive already in the library under that name. Sharpness is
        the variance of the Laplacian; higher is sharper.
      </p>
      {queue.data && !item && <ErrorText text="This download is no longer in the queue." />}
      <ErrorText text={comparison.error} />
      {!result && !comparison.error && (
        <p class="muted" role="status">
          Comparing… {pairs.filter(Boolean).length} matching pages so far
        </p>
      )}
      {result && (
        <div class="card compare-summary stack">
          <strong>
            Recommendation: {RECOMMENDATION[result.recommendation] ?? result.recommendation}
          </strong>
          <span>{result.reason}</span>
          <span class="muted">
            Download {result.a_total} pages, library copy {result.b_total} pages,{' '}
            {result.pairs.length} matched.
          </span>
        </div>
      )}
      {result && (
        <div class="card stack">
          <div class="row">
            <button
              type="button"
              class="primary"
              disabled={busy}
              onClick={() => finish('overwrite')}
            >
              Replace with download
              {pickedB.size > 0 ? `, keeping ${plural(pickedB.size)}` : ''}
            </button>
            <button type="button" disabled={busy} onClick={() => finish('keep-b')}>
              Keep library copy{pickedA.size > 0 ? `, adding ${plural(pickedA.size)}` : ''}
            </button>
          </div>
          <span class="muted">Picked pages are kept as a patch beside the archive that stays.</span>
        </div>
      )}
      {result && result.unmatched_a.length > 0 && (
        <Unmatched
          title="Only in the download"
          pages={result.unmatched_a}
          src={(i) => pageUrl('a', i)}
          picked={pickedA}
          onPick={setPickedA}
        />
      )}
      {result && result.unmatched_b.length > 0 && (
        <Unmatched
          title="Only in the library copy"
          pages={result.unmatched_b}
          src={(i) => pageUrl('b', i)}
          picked={pickedB}
          onPick={setPickedB}
        />
      )}
      {pairs.length > 0 && <h2>Matching pages</h2>}
      <ul class="compare-grid" aria-label="Matching pages">
        {pairs.map((pair, i) => pair && <PairRow key={i} pair={pair} src={pageUrl} />)}
      </ul>
    </section>
  )
}

function PairRow({ pair, src }: { pair: ComparePair; src: (side: Side, index: number) => string }) {
  const side = (s: Side) => {
    const index = s === 'a' ? pair.a_index : pair.b_index
    const name = s === 'a' ? pair.a_filename : pair.b_filename
    const sharpness = s === 'a' ? pair.a_sharpness : pair.b_sharpness
    return (
      <figure class="compare-side">
        <img
          class={pair.better === s ? 'compare-better' : undefined}
          src={src(s, index)}
          alt={`${s === 'a' ? 'Download' : 'Library copy'} page ${index + 1}`}
          loading="lazy"
        />
        <figcaption>
          <span class="compare-file">{name}</span>
          <br />
          Sharpness {sharpness.toFixed(1)}
          {pair.better === s && ' (sharper)'}
        </figcaption>
      </figure>
    )
  }
  return (
    <li class="card">
      <div class="compare-pair">
        {side('a')}
        {side('b')}
      </div>
      <span class="muted">
        {pair.better === 'same'
          ? 'Equally sharp'
          : `${pair.better === 'a' ? 'Download' : 'Library copy'} is sharper`}
        , difference {pair.distance} of 64 bits
      </span>
    </li>
  )
}

function Unmatched(props: {
  title: string
  pages: UnmatchedPage[]
  src: (index: number) => string
  picked: Set<number>
  onPick: (picked: Set<number>) => void
}) {
  const toggle = (index: number, on: boolean) => {
    const next = new Set(props.picked)
    if (on) next.add(index)
    else next.delete(index)
    props.onPick(next)
  }
  return (
    <div class="stack">
      <h2>{props.title}</h2>
      <ul class="compare-unmatched" aria-label={props.title}>
        {props.pages.map((p) => (
          <li key={p.index} class="card compare-side">
            <img src={props.src(p.index)} alt={`Page ${p.index + 1}`} loading="lazy" />
            <label>
              <input
                type="checkbox"
                checked={props.picked.has(p.index)}
                onChange={(e) => toggle(p.index, (e.target as HTMLInputElement).checked)}
              />{' '}
              Keep page {p.index + 1}
            </label>
            <span class="compare-file">
              {p.filename}
              {p.after_filename
                ? ` (after ${p.after_filename})`
                : p.before_filename
                  ? ` (before ${p.before_filename})`
                  : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
