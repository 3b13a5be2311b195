// Picking the one file an upload form sends; `onPick` gets it, or null when the choice is cleared.
// A form that empties itself after sending remounts it with a new `key`.
export function FileInput(props: {
  accept: string
  label: string
  onPick: (file: File | null) => void
}) {
  return (
    <input
      type="file"
      accept={props.accept}
      aria-label={props.label}
      onChange={(e) => props.onPick((e.target as HTMLInputElement).files?.[0] ?? null)}
    />
  )
}
