// Tags as removable chips plus an input suggesting known tags (GET /api/search/tags) as you type.
// Enter or a comma adds what was typed; arrows pick a suggestion.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { namespaceHue, namespaceOf } from '../components/tags.tsx'
import type { TagSuggestion } from '../types.ts'

const SUGGEST_DELAY_MS = 150
const SUGGESTIONS = 8

type Props = { tags: string[]; onChange: (tags: string[]) => void; label?: string }

let lists = 0

export function TagEditor({ tags, onChange, label = 'Add a tag' }: Props) {
  const [text, setText] = useState('')
  const [suggestions, setSuggestions] = useState<string[]>([])
  const [active, setActive] = useState(-1)
  const listId = useRef(`tag-suggestions-${++lists}`).current

  useEffect(() => {
    const q = text.trim()
    if (!q) return setSuggestions([])
    let current = true
    const timer = setTimeout(() => {
      api<TagSuggestion[]>('/api/search/tags', { query: { q, count: SUGGESTIONS } })
        .then((found) => {
          if (!current) return
          const have = new Set(tags.map((t) => t.toLowerCase()))
          setSuggestions(found.map((s) => s.tag).filter((t) => !have.has(t.toLowerCase())))
          setActive(-1)
        })
        // Suggestions are a help only (the index may still be building): typing goes on.
        .catch(() => current && setSuggestions([]))
    }, SUGGEST_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [text])

  const add = (raw: string) => {
    const fresh = raw
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
      .filter((t) => !tags.some((have) => have.toLowerCase() === t.toLowerCase()))
    if (fresh.length) onChange([...tags, ...new Set(fresh)])
    setText('')
    setSuggestions([])
  }

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' && suggestions.length) {
      e.preventDefault()
      setActive((i) => (i + 1) % suggestions.length)
    } else if (e.key === 'ArrowUp' && suggestions.length) {
      e.preventDefault()
      setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1))
    } else if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault()
      add(active >= 0 ? suggestions[active]! : text)
    } else if (e.key === 'Escape') setSuggestions([])
    else if (e.key === 'Backspace' && !text && tags.length) onChange(tags.slice(0, -1))
  }

  return (
    <div class="tag-editor">
      <ul class="tags tag-editor-chips" aria-label="Tags">
        {tags.map((tag) => (
          <li key={tag}>
            <EditableChip tag={tag} onRemove={() => onChange(tags.filter((t) => t !== tag))} />
          </li>
        ))}
      </ul>
      <div class="tag-editor-input">
        <input
          aria-label={label}
          aria-autocomplete="list"
          aria-controls={listId}
          aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
          autocomplete="off"
          placeholder="namespace:tag"
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
          onKeyDown={onKeyDown}
          onBlur={() => setTimeout(() => setSuggestions([]), 150)}
        />
        {suggestions.length > 0 && (
          <ul id={listId} class="tag-suggestions" role="listbox" aria-label="Tag suggestions">
            {suggestions.map((tag, i) => (
              <li
                key={tag}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                // Keeps the focus in the input, so the list is still there for the click.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => add(tag)}
              >
                {tag}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}

function EditableChip({ tag, onRemove }: { tag: string; onRemove: () => void }) {
  const namespace = namespaceOf(tag)
  const style = namespace ? { '--tag-hue': String(namespaceHue(namespace)) } : undefined
  return (
    <span class="tag" style={style}>
      {namespace && <span class="tag-ns">{namespace}</span>}
      <span class="tag-value">{namespace ? tag.slice(namespace.length + 1) : tag}</span>
      <button type="button" class="tag-remove" aria-label={`Remove tag ${tag}`} onClick={onRemove}>
        ×
      </button>
    </span>
  )
}
