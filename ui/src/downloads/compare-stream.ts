// A download comparison as it is computed (GET .../compare/stream): `sample` pairs (coarse, then
// each replaced by its precise figures), `done` with the whole result, `end`. A stream that
// cannot open (the server answered an Env error instead) is asked once more as POST .../compare,
// whose answer carries the server's message.
import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../api.ts'
import type { ComparePair, CompareResult } from './types.ts'

export type Comparison = {
  pairs: ComparePair[]
  result: CompareResult | null
  error: string | null
}

export function useComparison(id: string): Comparison {
  const [state, setState] = useState<Comparison>({ pairs: [], result: null, error: null })

  useEffect(() => {
    const path = `/api/download_queue/${encodeURIComponent(id)}/compare`
    let finished = false
    const source = new EventSource(`${path}/stream`)
    const stop = () => {
      finished = true
      source.close()
    }
    source.addEventListener('sample', (e) => {
      const { sample_index, sample } = JSON.parse((e as MessageEvent<string>).data) as {
        sample_index: number
        sample: ComparePair
      }
      setState((s) => {
        const pairs = [...s.pairs]
        pairs[sample_index] = sample
        return { ...s, pairs }
      })
    })
    source.addEventListener('done', (e) => {
      const result = JSON.parse((e as MessageEvent<string>).data) as CompareResult
      setState((s) => ({ ...s, result, pairs: result.pairs }))
    })
    source.addEventListener('end', stop)
    source.addEventListener('error', (e) => {
      // The server's own `error` event carries data; the browser's has none.
      const data = (e as MessageEvent<string>).data
      if (data) {
        const { error } = JSON.parse(data) as { error: string }
        setState((s) => ({ ...s, error }))
        return
      }
      if (finished) return
      stop()
      api<CompareResult>(path, { method: 'POST' })
        .then((result) => setState({ pairs: result.pairs, result, error: null }))
        .catch((error) => setState((s) => ({ ...s, error: messageOf(error) })))
    })
    return stop
  }, [id])

  return state
}
