/**
 * A list resource is declared once: the names a client may use for includes,
 * sorts and filters. The HTTP layer parses and documents queries from it, and
 * the store maps each name to SQL (its mapping is typed against these names).
 */
export interface ListSpec<
  I extends string = string,
  S extends string = string,
  P extends string = string,
  E extends string = string
> {
  resource: string
  includes: readonly I[]
  /** Allowed sort fields. */
  sorts: readonly S[]
  /** Default sort, `-` prefix for descending (e.g. `-created_at`). */
  defaultSort: string
  /** Case-insensitive substring filters. */
  partialFilters: readonly P[]
  /** Exact filters; a value may list several (`1,2`): any of them matches. */
  exactFilters: readonly E[]
  /**
   * Time filters, `filter[name]=YYYY-MM-DD HH:MM:SS` (or ISO 8601): items at
   * or after that UTC time (e.g. `updated_since` for incremental export).
   */
  sinceFilters?: readonly string[]
  /** Time filters, `filter[name]=YYYY-MM-DD HH:MM:SS` (or ISO 8601): items strictly before that UTC time. */
  beforeFilters?: readonly string[]
  /**
   * The value type of each sort field and of `id`, as a cursor carries them:
   * a cursor whose values have other types was not issued for this list (400).
   * `id` is an integer unless declared. A list without it accepts any scalar.
   */
  keyTypes?: Readonly<Record<string, SortValueType>>
}

/** A sort key's value in a cursor: `datetime` is `YYYY-MM-DD HH:MM:SS` (UTC); `bool` is true/false or 1/0 (SQLite). */
export type SortValueType = 'int' | 'bool' | 'datetime' | 'string'

export type IncludeOf<T> = T extends ListSpec<infer I, any, any, any> ? I : never
export type SortOf<T> = T extends ListSpec<any, infer S, any, any> ? S : never
export type PartialOf<T> = T extends ListSpec<any, any, infer P, any> ? P : never
export type ExactOf<T> = T extends ListSpec<any, any, any, infer E> ? E : never

export function defineList<
  const I extends string, const S extends string, const P extends string, const E extends string
> (spec: ListSpec<I, S, P, E>): ListSpec<I, S, P, E> {
  return spec
}

/** An include named `a-b` appears in responses as the key `a_b` (CONTRACT §16). */
export function includeKey (name: string): string {
  return name.replace(/-/g, '_')
}

export const PAGE_DEFAULT_SIZE = 15
export const PAGE_MAX_SIZE = 100
