// Short messages in a corner: successes fade out, errors stay until dismissed.
import { signal } from '@preact/signals'
import { messageOf } from '../api.ts'

type Toast = { id: number; text: string; kind: 'info' | 'error' }
const toasts = signal<Toast[]>([])
let next = 1

export function notify(text: string, kind: Toast['kind'] = 'info') {
  const toast = { id: next++, text, kind }
  toasts.value = [...toasts.value, toast]
  if (kind === 'info') setTimeout(() => dismiss(toast.id), 4000)
}

/** Shows a thrown value as an error toast; for `.catch(notifyError)`. */
export function notifyError(error: unknown) {
  notify(messageOf(error), 'error')
}

function dismiss(id: number) {
  toasts.value = toasts.value.filter((toast) => toast.id !== id)
}

export function Toasts() {
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.value.map((toast) => (
        <div key={toast.id} class={`toast toast-${toast.kind}`}>
          <span>{toast.text}</span>
          <button type="button" class="icon" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
