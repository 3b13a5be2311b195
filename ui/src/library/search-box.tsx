// The search field with suggestions as you type: tags for the word being typed (the text after
// the last comma, as the filter syntax separates terms by commas) and titles for the whole filter.
// A combobox in the ARIA sense: arrows move, Enter chooses, Escape closes.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { searchTermFor } from '../components/tags.tsx'
import { navigate, href } from '../router.ts'
import type { TagSuggestion } from '../types.ts'

const DEBOUNCE_MS = 150
const TAG_COUNT = 8
const TITLE_COUNT = 5

type Option =
  { kind: 'tag'; tag: string; weight: number } | { kind: 'title'; id: string; title: string }

/** The term being typed: its start offset in the text, its `-` if any, and its words. */
export function currentTerm(text: string): { start: number; negated: boolean; word: string } {
  const start = text.lastIndexOf(',') + 1
  const raw = text.slice(start).trimStart()
  const negated = raw.startsWith('-')
  const word = (negated ? raw.slice(1) : raw).trim().replace(/^"|"?\$?$/g, '')
  return { start, negated, word }
}

/** The text with the term being typed replaced by the search term of `tag`. */
export function withTag(text: string, tag: string): string {
  const { start, negated } = currentTerm(text)
  const before = text.slice(0, start)
  return `${before}${start > 0 ? ' ' : ''}${negated ? '-' : ''}${searchTermFor(tag)}`
}

export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value)
  const [options, setOptions] = useState<Option[]>([])
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const typed = useRef(false)
  const listId = 'lib-suggestions'

  useEffect(() => setText(value), [value])

  // Suggestions for what was typed, debounced; an answer for older text is dropped.
  useEffect(() => {
    if (!typed.current) return
    const { word } = currentTerm(text)
    if (word.length < 1) {
      setOptions([])
      return
    }
    let current = true
    const timer = setTimeout(async () => {
      const [tags, titles] = await Promise.all([
        api<TagSuggestion[] | null>('/api/search/tags', {
          query: { q: word, count: TAG_COUNT },
        }).catch(() => null),
        api<{ data: { arcid: string; title: string }[] } | null>('/api/search/suggest', {
          query: { filter: text },
        }).catch(() => null),
      ])
      if (!current) return
      const next: Option[] = [
        ...(tags ?? []).map((t) => ({ kind: 'tag' as const, tag: t.tag, weight: t.weight })),
        ...(titles?.data ?? [])
          .slice(0, TITLE_COUNT)
          .map((t) => ({ kind: 'title' as const, id: t.arcid, title: t.title })),
      ]
      setOptions(next)
      setActive(-1)
      setOpen(next.length > 0)
    }, DEBOUNCE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [text])

  const close = () => {
    setOpen(false)
    setActive(-1)
  }

  const choose = (option: Option) => {
    close()
    typed.current = false
    if (option.kind === 'title') return navigate(href(['reader', option.id]))
    const next = withTag(text, option.tag)
    setText(next)
    onSearch(next)
  }

  const onKeyDown = (event: KeyboardEvent) => {
    const shown = open && options.length > 0
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!shown) return setOpen(options.length > 0)
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      const last = options.length - 1
      setActive((i) => (step > 0 ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1))
    } else if (event.key === 'Enter' && shown && active >= 0 && options[active]) {
      event.preventDefault()
      choose(options[active])
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault()
      close()
    }
  }

  const submit = (event: Event) => {
    event.preventDefault()
    close()
    typed.current = false
    onSearch(text.trim())
  }

  const optionId = (i: number) => `${listId}-${i}`
  const shown = open && options.length > 0
  return (
    <form class="lib-search" role="search" onSubmit={submit}>
      <div class="lib-combo">
        <input
          type="search"
          role="combobox"
          list={undefined}
          aria-label="Search"
          aria-autocomplete="list"
          aria-expanded={shown}
          aria-controls={listId}
          aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
          autocomplete="off"
          spellcheck={false}
          placeholder={'Search: title, artist:name, -tag, "exact", pages:>20'}
          value={text}
          onInput={(e) => {
            typed.current = true
            setText((e.target as HTMLInputElement).value)
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setTimeout(close, 150)}
          onFocus={() => {
            if (typed.current) setOpen(options.length > 0)
          }}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label="Suggestions"
          class="lib-suggestions"
          hidden={!shown}
        >
          {options.map((option, i) => (
            <li
              key={option.kind === 'tag' ? 't' + option.tag : 'a' + option.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              class={option.kind === 'tag' ? 'lib-option-tag' : 'lib-option-title'}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(option)}
            >
              {option.kind === 'tag' ? (
                <>
                  <span>{option.tag}</span>
                  <span class="muted">{option.weight}</span>
                </>
              ) : (
                <>
                  <span>{option.title}</span>
                  <span class="muted">open</span>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
      <button type="submit" class="primary">
        Search
      </button>
    </form>
  )
}
