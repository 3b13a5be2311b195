// Asking before a destructive action, inline rather than window.confirm, so it looks the same
// everywhere and tests can click it. ConfirmButton is the usual form: the first click asks
// ("Really …?"), the second runs it. ConfirmPrompt is the question alone, for a view that keeps
// the asking state itself (to hide other buttons meanwhile).
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'

type PromptProps = {
  question: ComponentChildren
  /** The group's accessible name. */
  label: string
  yes: string
  no: string
  danger?: boolean
  class: string
  onConfirm: () => void
  onCancel: () => void
}

export function ConfirmPrompt(props: PromptProps) {
  return (
    <span class={props.class} role="group" aria-label={props.label}>
      <span>{props.question}</span>
      <button type="button" class={props.danger ? 'danger' : 'primary'} onClick={props.onConfirm}>
        {props.yes}
      </button>
      <button type="button" onClick={props.onCancel}>
        {props.no}
      </button>
    </span>
  )
}

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
    <ConfirmPrompt
      class="confirm"
      label={question}
      question={question}
      yes="Confirm"
      no="Cancel"
      danger={danger}
      onConfirm={run}
      onCancel={() => setAsking(false)}
    />
  )
}

/** The collections' wording: deleting a category or Tankoubon keeps its archives. */
export function ConfirmDeletion(props: {
  question: ComponentChildren
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <ConfirmPrompt
      class="row"
      label="Confirm deletion"
      yes="Yes, delete"
      no="Keep"
      danger
      {...props}
    />
  )
}
