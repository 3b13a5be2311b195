// The library's results, page after page: `/api/search` from `start=0`, then the next `start` on
// demand. The server answers 204 while its index is built; the view says so and asks again.
// A refused search is shown once and asked again only when the user says so (Retry): asking
// again by itself would repeat the same refusal forever. Only a request that never reached the
// server is retried alone, with a growing pause.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../api.ts'
import type { ArchiveMeta, SearchAnswer } from '../types.ts'
import { filterParams, searchKey, type LibraryQuery } from './query.ts'

const INDEXING_RETRY_MS = 1000
/** Pauses before asking again after a network failure: doubled each time, up to the last. */
const NETWORK_RETRY_MS = [1000, 2000, 4000, 8000, 16000, 30000]
/** Pages restored at once from `page=` in the URL; more than this is loaded by scrolling. */
const MAX_RESTORED_PAGES = 10

/** How many pages a library address naming `page` pages loads at once. */
export const restoredPages = (page: number) => Math.min(page, MAX_RESTORED_PAGES)

export type Results = {
  items: ArchiveMeta[]
  /** Matches before paging, and the size of the library searched; null before the first answer. */
  filtered: number | null
  total: number | null
  loading: boolean
  indexing: boolean
  error: string | null
  /** The HTTP status of the refusal in `error` (0 when the server was not reached). */
  errorStatus: number | null
  done: boolean
  pages: number
  loadMore: () => void
  /** The same search again from the start (after the selection changed archives). */
  reload: () => void
}

export function useResults(state: LibraryQuery): Results {
  const key = searchKey(state)
  const [items, setItems] = useState<ArchiveMeta[]>([])
  const [filtered, setFiltered] = useState<number | null>(null)
  const [total, setTotal] = useState<number | null>(null)
  const [loading, setLoading] = useState(true)
  const [indexing, setIndexing] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [errorStatus, setErrorStatus] = useState<number | null>(null)
  const [done, setDone] = useState(false)
  const [pages, setPages] = useState(0)
  const [version, setVersion] = useState(0)
  // A search outliving its key (the user typed on) must not write into the new one's results.
  const generation = useRef(0)
  const busy = useRef(false)
  const networkFailures = useRef(0)
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const loaded = useRef<ArchiveMeta[]>([])

  const fetchPage = useCallback(
    async (gen: number): Promise<boolean> => {
      for (;;) {
        const answer = await api<SearchAnswer | null>('/api/search', {
          query: {
            ...filterParams(state),
            start: loaded.current.length,
            sortby: state.sort,
            order: state.order,
            groupby_tanks: !state.volumes,
          },
        })
        if (gen !== generation.current) return false
        if (answer === null) {
          setIndexing(true)
          await new Promise((resolve) => setTimeout(resolve, INDEXING_RETRY_MS))
          if (gen !== generation.current) return false
          continue
        }
        setIndexing(false)
        loaded.current = [...loaded.current, ...answer.data]
        setItems(loaded.current)
        setFiltered(answer.recordsFiltered)
        setTotal(answer.recordsTotal)
        setPages((n) => n + 1)
        const finished = answer.data.length === 0 || loaded.current.length >= answer.recordsFiltered
        setDone(finished)
        return !finished
      }
    },
    // `key` stands for every field of `state` the request reads.
    [key],
  )

  const run = useCallback(
    async (gen: number, count: number): Promise<void> => {
      busy.current = true
      setLoading(true)
      clearTimeout(retryTimer.current)
      try {
        for (let i = 0; i < count; i++) if (!(await fetchPage(gen))) break
        networkFailures.current = 0
      } catch (e) {
        if (gen !== generation.current) return
        setError(messageOf(e))
        const status = e instanceof ApiError ? e.status : 0
        setErrorStatus(status)
        // fetch rejects (no ApiError) only when the server could not be reached.
        if (status === 0) {
          const wait =
            NETWORK_RETRY_MS[Math.min(networkFailures.current, NETWORK_RETRY_MS.length - 1)]
          networkFailures.current++
          retryTimer.current = setTimeout(() => {
            if (gen !== generation.current) return
            setError(null)
            setErrorStatus(null)
            void run(gen, Math.max(count, 1))
          }, wait)
        }
      } finally {
        if (gen === generation.current) {
          busy.current = false
          setLoading(false)
        }
      }
    },
    [fetchPage],
  )

  useEffect(() => {
    const gen = ++generation.current
    loaded.current = []
    setItems([])
    setFiltered(null)
    setTotal(null)
    setError(null)
    setErrorStatus(null)
    setDone(false)
    setPages(0)
    networkFailures.current = 0
    run(gen, restoredPages(state.page))
    return () => {
      generation.current++
      busy.current = false
      clearTimeout(retryTimer.current)
    }
    // Only a new search (or a reload) restarts; `page` changes as pages load.
  }, [key, version])

  /** The next page; after a failure, the page that failed (a user's Retry). */
  const loadMore = useCallback(() => {
    if (busy.current || done) return
    setError(null)
    setErrorStatus(null)
    run(generation.current, 1)
  }, [run, done])

  const reload = useCallback(() => setVersion((v) => v + 1), [])

  return {
    items,
    filtered,
    total,
    loading,
    indexing,
    error,
    errorStatus,
    done,
    pages,
    loadMore,
    reload,
  }
}
