/** SQLite returns 0/1 for booleans, PostgreSQL true/false. */
export function bool (value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't'
}

export function parseJson<T> (value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback
  if (typeof value !== 'string') return value as T
  try {
    return JSON.parse(value) as T
  } catch {
    return fallback
  }
}
