import { useEffect, useState, useCallback, useRef } from 'preact/hooks'
import { api, ApiError } from './api.js'
import { t } from '../messages/index.js'

export interface Async<T> {
  data: T | undefined
  error: ApiError | undefined
  loading: boolean
  reload: () => void
}

/** Runs `load` when `deps` change and on reload(); keeps the last data while reloading. */
export function useAsync<T> (load: () => Promise<T>, deps: unknown[]): Async<T> {
  const [data, setData] = useState<T | undefined>(undefined)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [loading, setLoading] = useState(true)
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let live = true
    setLoading(true)
    load().then((value) => {
      if (!live) return
      setData(value)
      setError(undefined)
    }).catch((caught: unknown) => {
      if (!live) return
      setError(caught instanceof ApiError ? caught : new ApiError(0, String(caught)))
    }).finally(() => { if (live) setLoading(false) })
    return () => { live = false }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick])
  const reload = useCallback(() => { setTick((n) => n + 1) }, [])
  return { data, error, loading, reload }
}

/** Runs a mutation and tracks its pending state and error (422 field errors included). */
export function useAction<A extends unknown[], R> (action: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const ref = useRef(action)
  ref.current = action
  const run = useCallback(async (...args: A): Promise<R | undefined> => {
    setPending(true)
    setError(undefined)
    try {
      return await ref.current(...args)
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, String(caught)))
      return undefined
    } finally {
      setPending(false)
    }
  }, [])
  return { run, pending, error, setError }
}

interface ListItemsOptions<T> { path: string, nameOf: (item: T) => string, reload: () => void, onDeleted?: (item: T) => void }

/**
 * Deleting the items of a list (`DELETE {path}/{id}` after a confirmation), with the status line the screen
 * shows for it (and for its other actions, through `setDone`).
 */
export function useDeletableList<T extends { id: number }> (options: ListItemsOptions<T>) {
  const [done, setDone] = useState('')
  const remove = useAction(async (item: T) => {
    if (!window.confirm(t('common.confirmDelete', { name: options.nameOf(item) }))) return
    await api.delete(`${options.path}/${item.id}`)
    setDone(t('common.deleted'))
    options.reload()
    options.onDeleted?.(item)
  })
  return { done, setDone, remove }
}

/**
 * Reordering (`POST {path}/order`) and deleting (see useDeletableList) the items of an ordered list, with the
 * status line the screen shows for both.
 */
export function useOrderedList<T extends { id: number }> (options: ListItemsOptions<T>) {
  const { done, setDone, remove } = useDeletableList(options)
  const order = useAction(async (ids: number[]) => {
    await api.post(`${options.path}/order`, { order: ids })
    setDone(t('common.orderSaved'))
    options.reload()
  })
  return { done, setDone, order, remove }
}
