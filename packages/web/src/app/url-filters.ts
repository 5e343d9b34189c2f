import { useSearchParams } from 'wouter-preact'

/**
 * Filters kept in the page's URL (`?status=3&q=printer`): a link shares them,
 * reload keeps them and the back button returns to the previous ones. A value
 * equal to its default is left out of the URL. Each change is a history entry.
 */
export function useUrlFilters<K extends string> (defaults: Record<K, string>): [Record<K, string>, (key: K, value: string) => void, (values: Partial<Record<K, string>>) => void] {
  const [params, setParams] = useSearchParams()
  const values = Object.fromEntries(Object.entries(defaults).map(([key, fallback]) => [key, params.get(key) ?? fallback])) as Record<K, string>
  /** Several filters in one history entry (a search form's fields, submitted together). */
  const setMany = (changes: Partial<Record<K, string>>) => {
    setParams((previous) => {
      const next = new URLSearchParams(previous)
      for (const [key, value] of Object.entries(changes) as Array<[K, string]>) {
        if (value === defaults[key]) next.delete(key)
        else next.set(key, value)
      }
      return next
    })
  }
  const set = (key: K, value: string) => { setMany({ [key]: value } as Partial<Record<K, string>>) }
  return [values, set, setMany]
}
