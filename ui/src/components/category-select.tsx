// The category new archives go into (upload, download queue). Only static categories are offered:
// a dynamic one is a saved search and takes no members.
import type { Category } from '../types.ts'

type Props = {
  label: string
  categories: Category[]
  value: string
  onChange: (id: string) => void
}

export function CategorySelect({ label, categories, value, onChange }: Props) {
  return (
    <label class="stack-label">
      {label}
      <select value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        <option value="">No category</option>
        {categories
          .filter((c) => !c.search)
          .map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
      </select>
    </label>
  )
}
