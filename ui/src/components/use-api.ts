// Loading a server answer into a view: `{data, error, loading, reload}`; reloads when deps change.
import { useCallback, useEffect, useState } from 'preact/hooks'
import { messageOf } from '../api.ts'

export function useApi<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    let current = true
    setLoading(true)
    load()
      .then((value) => {
        if (!current) return
        setData(value)
        setError(null)
      })
      .catch((e) => current && setError(messageOf(e)))
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
    // `load` is a new closure each render: the caller's `deps` say when it asks for something new.
  }, [...deps, version])
  const reload = useCallback(() => setVersion((v) => v + 1), [])
  return { data, error, loading, reload }
}
