// A button for a destructive action: the first click asks inline ("Really …?"), the second runs
// it. Inline rather than window.confirm, so it looks the same everywhere and tests can click it.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'

type Props = {
  children: ComponentChildren
  /** The question shown before running, e.g. "Delete every snapshot?". */
  question: string
  onConfirm: () => void | Promise<void>
  disabled?: boolean
  danger?: boolean
  label?: string
}

export function ConfirmButton({ children, question, onConfirm, disabled, danger, label }: Props) {
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  if (!asking)
    return (
      <button
        type="button"
        class={danger ? 'danger' : undefined}
        aria-label={label}
        disabled={disabled || busy}
        onClick={() => setAsking(true)}
      >
        {children}
      </button>
    )
  const run = async () => {
    setAsking(false)
    setBusy(true)
    try {
      await onConfirm()
    } finally {
      setBusy(false)
    }
  }
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button type="button" class={danger ? 'danger' : 'primary'} onClick={run}>
        Confirm
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  )
}
