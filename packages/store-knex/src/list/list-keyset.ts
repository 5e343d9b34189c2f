import type { Knex } from 'knex'
import { encodeCursor, type ListQuery, type ListSpec, type Page } from '@helpdesk/core'
import { limitTo, type ListMapping, type SortColumn } from './list-mapping.js'

/** One key of a list's order: the SQL expression and its direction (the id tie-breaker last). */
interface OrderKey { sql: string, bindings: string[], desc: boolean }

function keyOf (sort: SortColumn, desc: boolean): OrderKey {
  if (typeof sort === 'string') return { sql: '??', bindings: [sort], desc }
  if ('nullsAs' in sort) return { sql: 'coalesce(??, ?)', bindings: [sort.column, sort.nullsAs], desc }
  return { sql: 'lower(??)', bindings: [sort.column], desc }
}

/** The query's order as keys: each sort, then the id with the last sort's direction (as `applySort` orders). */
export function orderKeys (mapping: ListMapping<ListSpec, unknown, unknown>, query: ListQuery): OrderKey[] {
  const keys = query.sort.map((key) => keyOf((mapping.sorts as Record<string, SortColumn>)[key.field] ?? mapping.idColumn, key.desc))
  keys.push(keyOf(mapping.idColumn, query.sort.at(-1)?.desc === true))
  return keys
}

const cursorColumn = (i: number): string => `cursor_key_${i}`

/**
 * Rows after (or before) `position` in the keys' order: a row-value
 * comparison when every key goes the same way (an index range scan on both
 * databases), else the expanded form behind a bound on the first key.
 */
function whereAfter (qb: Knex.QueryBuilder, keys: OrderKey[], position: unknown[], backward: boolean): void {
  const ascending = (key: OrderKey): boolean => key.desc === backward
  const first = keys[0] as OrderKey
  if (keys.every((key) => ascending(key) === ascending(first))) {
    void qb.whereRaw(`(${keys.map((k) => k.sql).join(', ')}) ${ascending(first) ? '>' : '<'} (${keys.map(() => '?').join(', ')})`,
      [...keys.flatMap((k) => k.bindings), ...position] as never[])
    return
  }
  void qb.whereRaw(`${first.sql} ${ascending(first) ? '>=' : '<='} ?`, [...first.bindings, position[0]] as never[])
  void qb.where((any) => {
    keys.forEach((key, i) => {
      void any.orWhere((one) => {
        for (let j = 0; j < i; j++) void one.whereRaw(`${(keys[j] as OrderKey).sql} = ?`, [...(keys[j] as OrderKey).bindings, position[j]] as never[])
        void one.whereRaw(`${key.sql} ${ascending(key) ? '>' : '<'} ?`, [...key.bindings, position[i]] as never[])
      })
    })
  })
}

/**
 * A page by cursor (CONTRACT extension: `cursor`): the rows after the
 * cursor's position in the query's order, no count, and the cursors of the
 * neighbouring pages, built from the sort values the database itself returns.
 */
export async function cursorRows<Row> (
  db: Knex, filtered: Knex.QueryBuilder, mapping: ListMapping<ListSpec, Row, unknown>, query: ListQuery
): Promise<{ rows: Row[], cursors: NonNullable<Page<unknown>['cursors']> }> {
  const cursor = query.cursor ?? { position: null, backward: false }
  const keys = orderKeys(mapping as ListMapping<ListSpec, unknown, unknown>, query)
  const qb = filtered.clone()
  keys.forEach((key, i) => { void qb.select(db.raw(`${key.sql} as ??`, [...key.bindings, cursorColumn(i)])) })
  if (cursor.position !== null) whereAfter(qb, keys, cursor.position, cursor.backward)
  for (const key of keys) void qb.orderByRaw(`${key.sql} ${key.desc !== cursor.backward ? 'desc' : 'asc'}`, key.bindings)
  const fetched = await limitTo(qb, query.perPage + 1) as Array<Row & Record<string, unknown>>
  const more = fetched.length > query.perPage
  const rows = fetched.slice(0, query.perPage)
  if (cursor.backward) rows.reverse()
  const at = (row: Record<string, unknown> | undefined, backward: boolean): string | null =>
    row === undefined ? null : encodeCursor(query.sort, keys.map((_, i) => row[cursorColumn(i)] as string | number | boolean), backward)
  const first = rows[0]
  const last = rows.at(-1)
  const cursors = cursor.backward
    ? { next: at(last, false), prev: more ? at(first, true) : null }
    : { next: more ? at(last, false) : null, prev: cursor.position === null ? null : at(first, true) }
  for (const row of rows) keys.forEach((_, i) => { Reflect.deleteProperty(row, cursorColumn(i)) })
  return { rows, cursors }
}
