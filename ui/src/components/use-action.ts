// A form's send: `busy` while it runs (its button disabled), the failure's message in `error` for
// an ErrorText. Cleared when the next attempt starts.
import { useState } from 'preact/hooks'
import { messageOf } from '../api.ts'

export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true)
    setError(null)
    try {
      await work()
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, setError, run }
}
