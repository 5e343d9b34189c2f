/** An API failure as the contract shapes it: `{message}`, and for 422 `{message, errors: {field: [sentences]}}`. */
export class ApiError extends Error {
  readonly status: number
  readonly errors: Record<string, string[]>

  constructor (status: number, message: string, errors: Record<string, string[]> = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.errors = errors
  }

  /** The first sentence for a field (dotted paths as the API sends them), if any. */
  fieldError (field: string): string | undefined {
    return this.errors[field]?.[0]
  }
}

/** Maps a failed response (status and parsed body, if any) to an ApiError with a message a person can read. */
export function toApiError (status: number, body: unknown, fallback: string): ApiError {
  const record = typeof body === 'object' && body !== null ? body as Record<string, unknown> : {}
  const message = typeof record.message === 'string' && record.message !== '' ? record.message : fallback
  const errors: Record<string, string[]> = {}
  if (typeof record.errors === 'object' && record.errors !== null) {
    for (const [field, sentences] of Object.entries(record.errors as Record<string, unknown>)) {
      if (Array.isArray(sentences)) errors[field] = sentences.filter((s): s is string => typeof s === 'string')
      else if (typeof sentences === 'string') errors[field] = [sentences]
    }
  }
  return new ApiError(status, message, errors)
}

/** Query parameters in the API's list syntax: `filter[name]`, `include`, `sort`, `cursor`. */
export interface ListParams {
  include?: string[]
  sort?: string
  filter?: Record<string, string | number | Array<string | number> | undefined>
  cursor?: string | null
  page?: number
  per_page?: number
}

export function listQuery (params: ListParams): string {
  const search = new URLSearchParams()
  if (params.include !== undefined && params.include.length > 0) search.set('include', params.include.join(','))
  if (params.sort !== undefined && params.sort !== '') search.set('sort', params.sort)
  for (const [name, value] of Object.entries(params.filter ?? {})) {
    if (value === undefined || value === '') continue
    const text = Array.isArray(value) ? value.join(',') : String(value)
    if (text !== '') search.set(`filter[${name}]`, text)
  }
  if (params.cursor !== undefined && params.cursor !== null) search.set('cursor', params.cursor)
  if (params.page !== undefined) search.set('page', String(params.page))
  if (params.per_page !== undefined) search.set('per_page', String(params.per_page))
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/** Plain-text fields of the API's resources: titles, names and previews (bodies are HTML and stay as they are). */
const PLAIN_TEXT_KEYS = new Set(['title', 'name', 'first_name', 'last_name', 'company', 'preview', 'placeholder', 'description', 'comment'])

/**
 * The API keeps `<` and `>` of plain-text fields escaped as `&lt;`/`&gt;` (CONTRACT §17); Preact renders
 * text nodes safely, so the console shows them as typed. Walks a parsed response and returns it decoded.
 */
export function decodePlainText<T> (value: T, key?: string): T {
  if (typeof value === 'string') {
    return (key !== undefined && PLAIN_TEXT_KEYS.has(key) ? value.replace(/&lt;/g, '<').replace(/&gt;/g, '>') : value) as T
  }
  if (Array.isArray(value)) return value.map((item) => decodePlainText(item, key)) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodePlainText(v, k)])) as T
  }
  return value
}

/** The error with the sentences of a list's items (`tags.0`, `tags.3`) also under the list's own name, for a single control. */
export function foldFieldErrors (error: ApiError | undefined, field: string): ApiError | undefined {
  if (error === undefined || error.fieldError(field) !== undefined) return error
  const item = Object.keys(error.errors).find((key) => key.startsWith(`${field}.`))
  if (item === undefined) return error
  return new ApiError(error.status, error.message, { ...error.errors, [field]: error.errors[item] ?? [] })
}
