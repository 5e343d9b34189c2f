import type { Knex } from 'knex'
import {
  includeKey, ValidationError,
  type ExactOf, type IncludeOf, type ListQuery, type ListSpec, type Page, type PartialOf, type SortOf
} from '@helpdesk/core'
import { containsPattern, type Dialect } from '../dialects/dialect.js'
import { cursorRows } from './list-keyset.js'

/** Loads one include for a whole page in one query and sets `item[key]` on each item. */
export type IncludeLoader<Item> = (db: Knex, items: Item[], query: ListQuery, key: string) => Promise<void>

/** An exact filter: a column (values checked against `type`) or a custom predicate. */
export type ExactFilter =
  | { column: string, type: 'int' | 'string' | 'bool' }
  | ((qb: Knex.QueryBuilder, values: string[]) => void)

/** A partial filter: a column, several columns (any matches), or a custom predicate. */
export type PartialFilter = string | string[] | ((qb: Knex.QueryBuilder, value: string, dialect: Dialect) => void)

/**
 * A sort: a column, a text column compared case-insensitively
 * (`caseInsensitive(column)`), or a nullable column whose nulls sort as
 * `nullsAs` (`nullsLast(column)`: the same order on both databases, and
 * cursors never carry a null).
 */
export type SortColumn = string | { column: string, caseInsensitive: true } | { column: string, nullsAs: string }

/** A nullable time column sorted with its nulls after every time (ascending). */
export function nullsLast (column: string): SortColumn {
  return { column, nullsAs: '9999-12-31 23:59:59' }
}

/** Sorts text the way people read it: `billing` between `Account` and `Sales`. */
export function caseInsensitive (column: string): SortColumn {
  return { column, caseInsensitive: true }
}

/**
 * How one declared list maps onto SQL. Typed against the ListSpec, so a name
 * the spec declares but the store forgets is a compile error.
 */
export interface ListMapping<S extends ListSpec, Row, Item> {
  spec: S
  sorts: Record<SortOf<S>, SortColumn>
  partial: Record<PartialOf<S>, PartialFilter>
  exact: Record<ExactOf<S>, ExactFilter>
  includes: Record<IncludeOf<S>, IncludeLoader<Item>>
  /** The column of each time filter the spec declares (`sinceFilters`): rows at or after the time. */
  since?: Record<string, string>
  /** The column of each time filter the spec declares (`beforeFilters`): rows strictly before the time. */
  before?: Record<string, string>
  /** Tie-breaker appended to every sort so pages are stable. */
  idColumn: string
  map: (row: Row) => Item
}

/** A list's total: exact, or a lower bound when counting stopped early. */
export interface ListTotal { total: number, lowerBound?: boolean }

/** Checks and converts exact-filter values: 422 on `filter.NAME` for a value of the wrong type. */
export function parseExact (name: string, type: 'int' | 'string' | 'bool', values: string[]): Array<string | number | boolean> {
  return values.map((v) => {
    if (type === 'string') return v
    if (type === 'bool') {
      if (v === '1' || v === 'true') return true
      if (v === '0' || v === 'false') return false
    } else if (/^-?\d{1,15}$/.test(v)) {
      return Number(v)
    }
    throw ValidationError.field(`filter.${name}`, `The ${name} filter has an invalid value "${v}".`)
  })
}

/** Adds the query's filters to `qb`. */
export function applyFilters<S extends ListSpec> (
  qb: Knex.QueryBuilder, mapping: ListMapping<S, unknown, unknown>, query: ListQuery, dialect: Dialect
): void {
  for (const [name, value] of Object.entries(query.partial)) {
    const filter = (mapping.partial as Record<string, PartialFilter>)[name]
    if (filter === undefined) continue
    if (typeof filter === 'function') {
      filter(qb, value, dialect)
    } else {
      const columns = Array.isArray(filter) ? filter : [filter]
      const pattern = containsPattern(value)
      void qb.where((sub) => {
        for (const column of columns) void sub.orWhere((one) => { dialect.whereContains(one, column, pattern) })
      })
    }
  }
  for (const [name, values] of Object.entries(query.exact)) {
    const filter = (mapping.exact as Record<string, ExactFilter>)[name]
    if (filter === undefined) continue
    if (typeof filter === 'function') filter(qb, values)
    else void qb.whereIn(filter.column, parseExact(name, filter.type, values))
  }
  for (const [name, at] of Object.entries(query.since ?? {})) {
    const column = mapping.since?.[name]
    if (column !== undefined) void qb.where(column, '>=', at)
  }
  for (const [name, at] of Object.entries(query.before ?? {})) {
    const column = mapping.before?.[name]
    if (column !== undefined) void qb.where(column, '<', at)
  }
}

/** `COUNT(*)` of the filtered query: the default total. */
export async function countRows (filtered: Knex.QueryBuilder): Promise<ListTotal> {
  const counted = await filtered.clone().clearSelect().clearOrder().count({ total: '*' }).first() as { total: number | string } | undefined
  return { total: Number(counted?.total ?? 0) }
}

export function applySort<S extends ListSpec> (qb: Knex.QueryBuilder, mapping: ListMapping<S, unknown, unknown>, query: ListQuery): void {
  for (const key of query.sort) {
    const sort = (mapping.sorts as Record<string, SortColumn>)[key.field] ?? mapping.idColumn
    const direction = key.desc ? 'desc' : 'asc'
    if (typeof sort === 'string') void qb.orderBy(sort, direction)
    else if ('nullsAs' in sort) void qb.orderByRaw(`coalesce(??, ?) ${direction}`, [sort.column, sort.nullsAs])
    else void qb.orderByRaw(`lower(??) ${direction}`, [sort.column])
  }
  void qb.orderBy(mapping.idColumn, query.sort.at(-1)?.desc === true ? 'desc' : 'asc')
}

/**
 * Loads the query's includes onto `items`, one query per include, except that
 * belongs-to includes reading the same table (a ticket's `user`, `creator`
 * and `agent` are all users) share one query for the ids of all of them.
 */
export async function loadIncludes<S extends ListSpec, Item> (
  db: Knex, mapping: ListMapping<S, unknown, Item>, items: Item[], query: ListQuery
): Promise<void> {
  if (items.length === 0) return
  const relations = new Map<RelationLoad, Array<{ key: string, relation: Relation<Item> }>>()
  for (const name of query.include) {
    const loader = (mapping.includes as Record<string, IncludeLoader<Item>>)[name]
    if (loader === undefined) continue
    const relation = (loader as RelationLoader<Item>).relation
    if (relation === undefined) {
      await loader(db, items, query, includeKey(name))
      continue
    }
    const group = relations.get(relation.load)
    if (group === undefined) relations.set(relation.load, [{ key: includeKey(name), relation }])
    else group.push({ key: includeKey(name), relation })
  }
  for (const [load, group] of relations) await attachRelated(db, items, load, group)
}

/** Reads the rows `group`'s foreign keys name across `items` with one `load`, and sets each item's keys. */
async function attachRelated<Item> (
  db: Knex, items: Item[], load: RelationLoad, group: ReadonlyArray<{ key: string, relation: Relation<Item> }>
): Promise<void> {
  const ids = new Set<number | string>()
  for (const { relation } of group) {
    for (const item of items) {
      const fk = item[relation.foreignKey] as number | string | null | undefined
      if (fk !== null && fk !== undefined) ids.add(fk)
    }
  }
  const related = ids.size === 0 ? [] : await load(db, [...ids])
  const byId = new Map(related.map((r) => [String(r.id), r]))
  for (const { key, relation } of group) {
    for (const item of items) {
      const fk = item[relation.foreignKey]
      ;(item as Record<string, unknown>)[key] = fk === null || fk === undefined ? null : byId.get(String(fk)) ?? null
    }
  }
}

/**
 * `qb` with `LIMIT n` written into the statement's text instead of bound.
 * SQLite reads a bound LIMIT's value while planning, which marks the kept
 * prepared statement to be compiled again before every run
 * (`sqlite3Reprepare`: about 8% of a list request's CPU). A limit is a page
 * size or a fixed cap, so the texts stay few; knex writes it as an integer.
 */
export function limitTo (qb: Knex.QueryBuilder, n: number): Knex.QueryBuilder {
  return qb.limit(n, { skipBinding: true })
}

/** How a list finds its total instead of `COUNT(*)` of the filtered query (e.g. from counter rows). */
export interface PageOptions { total?: (filtered: Knex.QueryBuilder) => Promise<ListTotal> }

/**
 * One page of `base` (a query already scoped to what the caller may see):
 * the total (one COUNT unless `options.total` knows better), one page query,
 * then one query per include. With a cursor: no total, and the page
 * continues from the cursor's position (`cursorRows`).
 */
export async function listPage<S extends ListSpec, Row, Item> (
  db: Knex, dialect: Dialect, base: Knex.QueryBuilder, mapping: ListMapping<S, Row, Item>, query: ListQuery, options: PageOptions = {}
): Promise<Page<Item>> {
  applyFilters(base, mapping as ListMapping<S, unknown, unknown>, query, dialect)
  return await filteredPage(db, base, mapping, query, options)
}

/** `listPage` for a query whose filters are applied already. */
export async function filteredPage<S extends ListSpec, Row, Item> (
  db: Knex, filtered: Knex.QueryBuilder, mapping: ListMapping<S, Row, Item>, query: ListQuery, options: PageOptions = {}
): Promise<Page<Item>> {
  const withIncludes = async (rows: Row[]): Promise<Item[]> => {
    const items = rows.map((row) => mapping.map(row))
    await loadIncludes(db, mapping as ListMapping<S, unknown, Item>, items, query)
    return items
  }
  if (query.cursor !== undefined) {
    const { rows, cursors } = await cursorRows(db, filtered, mapping as ListMapping<ListSpec, Row, unknown>, query)
    return { items: await withIncludes(rows), total: 0, page: 1, perPage: query.perPage, cursors }
  }
  const { total, lowerBound = false } = await (options.total ?? countRows)(filtered)
  const pageQuery = filtered.clone()
  applySort(pageQuery, mapping as ListMapping<S, unknown, unknown>, query)
  const rows = total === 0 && !lowerBound ? [] : await limitTo(pageQuery, query.perPage).offset((query.page - 1) * query.perPage) as Row[]
  return { items: await withIncludes(rows), total, page: query.page, perPage: query.perPage, ...(lowerBound ? { totalIsLowerBound: true } : {}) }
}

/** One item of `base` with the query's includes, or null. */
export async function viewOne<S extends ListSpec, Row, Item> (
  db: Knex, base: Knex.QueryBuilder, mapping: ListMapping<S, Row, Item>, query: ListQuery
): Promise<Item | null> {
  const row = await base.first() as Row | undefined
  if (row === undefined) return null
  const items = [mapping.map(row)]
  await loadIncludes(db, mapping as ListMapping<S, unknown, Item>, items, query)
  return items[0] ?? null
}

/**
 * A count include: `SELECT fk, count(*) ... WHERE fk IN (page ids) GROUP BY fk`.
 * `scope` narrows the counted rows (e.g. only replies).
 */
export function countInclude<Item extends { id: number | string }> (
  table: string, foreignKey: string, scope?: (qb: Knex.QueryBuilder) => void
): IncludeLoader<Item> {
  return async (db, items, _query, key) => {
    const ids = [...new Set(items.map((i) => i.id))]
    const qb = db(table).select(`${foreignKey} as owner`).count({ n: '*' }).whereIn(foreignKey, ids).groupBy(foreignKey)
    if (scope !== undefined) scope(qb)
    const rows = await qb as Array<{ owner: number | string, n: number | string }>
    const counts = new Map(rows.map((r) => [String(r.owner), Number(r.n)]))
    for (const item of items) (item as Record<string, unknown>)[key] = counts.get(String(item.id)) ?? 0
  }
}

type RelationLoad = (db: Knex, ids: Array<number | string>) => Promise<Array<{ id: number | string }>>
interface Relation<Item> { foreignKey: keyof Item & string, load: RelationLoad }
/** A belongs-to include: `loadIncludes` reads the related rows, one query per `load` for the whole page. */
type RelationLoader<Item> = IncludeLoader<Item> & { relation?: Relation<Item> }

/**
 * A belongs-to include: collects `item[foreignKey]` over the page, loads them
 * in one query, and attaches each (or null). Includes of one list that name
 * the same `load` share that query (see `loadIncludes`).
 */
export function relationInclude<Item, Related extends { id: number | string }> (
  foreignKey: keyof Item & string, load: (db: Knex, ids: Array<number | string>) => Promise<Related[]>
): IncludeLoader<Item> {
  const relation: Relation<Item> = { foreignKey, load }
  const loader: RelationLoader<Item> = async (db, items, _query, key) => { await attachRelated(db, items, load, [{ key, relation }]) }
  loader.relation = relation
  return loader
}
