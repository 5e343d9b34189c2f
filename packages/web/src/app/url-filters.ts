import { useSearchParams } from 'wouter-preact'

/**
 * Filters kept in the page's URL (`?status=3&q=printer`): a link shares them,
 * reload keeps them and the back button returns to the previous ones. A value
 * equal to its default is left out of the URL. Each change is a history entry.
 */
export function useUrlFilters<K extends string> (defaults: Record<K, string>): [Record<K, string>, (key: K, value: string) => void] {
  const [params, setParams] = useSearchParams()
  const values = Object.fromEntries(Object.entries(defaults).map(([key, fallback]) => [key, params.get(key) ?? fallback])) as Record<K, string>
  const set = (key: K, value: string) => {
    setParams((previous) => {
      const next = new URLSearchParams(previous)
      if (value === defaults[key]) next.delete(key)
      else next.set(key, value)
      return next
    })
  }
  return [values, set]
}
