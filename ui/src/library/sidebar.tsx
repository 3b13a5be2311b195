// The library's side panel: categories (pinned first) and a cloud of the most used tags. Folded
// away on phones, where it sits above the grid.
import { useState } from 'preact/hooks'
import { namespaceHue } from '../components/tags.tsx'
import { flag, type Category } from '../types.ts'

export type TagStat = { namespace: string; text: string; weight: number }

const CLOUD_SIZE = 40
const PHONE = '(max-width: 640px)'

export const tagOf = (stat: TagStat) =>
  stat.namespace ? `${stat.namespace}:${stat.text}` : stat.text

type Props = {
  categories: Category[] | null
  stats: TagStat[] | null
  selected: string
  onCategory: (id: string) => void
  onTag: (tag: string) => void
}

export function LibrarySidebar({ categories, stats, selected, onCategory, onTag }: Props) {
  const [open, setOpen] = useState(() => !matchMedia(PHONE).matches)
  const sorted = [...(categories ?? [])].sort(
    (a, b) => Number(flag(b.pinned)) - Number(flag(a.pinned)) || a.name.localeCompare(b.name),
  )
  return (
    <aside class="lib-side" aria-label="Filters">
      <button
        type="button"
        class="lib-side-toggle"
        aria-expanded={open}
        aria-controls="lib-side-body"
        onClick={() => setOpen(!open)}
      >
        {open ? 'Hide categories and tags' : 'Categories and tags'}
      </button>
      <div id="lib-side-body" class="stack" hidden={!open}>
        <nav aria-label="Categories">
          <h2>Categories</h2>
          <ul class="lib-categories">
            <li>
              <button type="button" aria-pressed={selected === ''} onClick={() => onCategory('')}>
                All archives
              </button>
            </li>
            {sorted.map((category) => (
              <li key={category.id}>
                <button
                  type="button"
                  aria-pressed={selected === category.id}
                  onClick={() => onCategory(category.id)}
                >
                  {flag(category.pinned) && (
                    <span class="lib-pin" aria-label="Pinned">
                      ★
                    </span>
                  )}
                  <span>{category.name}</span>
                  {category.search ? (
                    <span class="muted lib-cat-kind">dynamic</span>
                  ) : (
                    <span class="muted lib-cat-kind">{category.archives.length}</span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        {stats && stats.length > 0 && <TagCloud stats={stats} onTag={onTag} />}
      </div>
    </aside>
  )
}

function TagCloud({ stats, onTag }: { stats: TagStat[]; onTag: (tag: string) => void }) {
  const top = stats.slice(0, CLOUD_SIZE)
  const max = Math.max(...top.map((s) => s.weight), 1)
  const min = Math.min(...top.map((s) => s.weight), max)
  // Sorted by text, so the cloud reads like an index; size says the weight.
  const shown = [...top].sort((a, b) => tagOf(a).localeCompare(tagOf(b)))
  return (
    <section aria-label="Popular tags">
      <h2>Tags</h2>
      <div class="lib-cloud">
        {shown.map((stat) => {
          const tag = tagOf(stat)
          const scale = max === min ? 0.5 : (stat.weight - min) / (max - min)
          return (
            <button
              type="button"
              key={tag}
              class="lib-cloud-tag"
              title={`${tag} (${stat.weight})`}
              style={{
                '--w': String(scale),
                '--tag-hue': String(namespaceHue(stat.namespace)),
              }}
              onClick={() => onTag(tag)}
            >
              {tag}
            </button>
          )
        })}
      </div>
    </section>
  )
}
