import type { Knex } from 'knex'

/**
 * Everything a migration leaves in a database, as plain sorted data: for
 * SQLite the DDL SQLite keeps (`sqlite_master`: tables, FTS5 virtual tables
 * and their shadow tables, indexes, triggers) and each table's columns; for
 * PostgreSQL the columns (type, nullability, default), constraints, index
 * definitions (tsvector GIN and trigram indexes included), triggers,
 * functions and extensions. Knex's own bookkeeping tables are left out.
 */
export interface SchemaDescription {
  [kind: string]: string[]
}

const isKnexTable = (name: string): boolean => name.startsWith('knex_')

export async function describeSchema (knex: Knex): Promise<SchemaDescription> {
  return knex.client.config.client === 'pg' ? await describePostgres(knex) : await describeSqlite(knex)
}

async function describeSqlite (knex: Knex): Promise<SchemaDescription> {
  const objects = await knex.raw(
    "select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name"
  ) as Array<{ type: string, name: string, tbl_name: string, sql: string | null }>
  const out: SchemaDescription = { table: [], index: [], trigger: [], view: [], column: [] }
  for (const o of objects) {
    if (isKnexTable(o.tbl_name)) continue
    ;(out[o.type] ??= []).push(`${o.name} on ${o.tbl_name}: ${o.sql ?? '(automatic)'}`)
    if (o.type === 'table') {
      const columns = await knex.raw('select * from pragma_table_info(?)', [o.name]) as Array<{ name: string, type: string, notnull: number, dflt_value: string | null, pk: number }>
      for (const c of columns) out.column!.push(`${o.name}.${c.name} ${c.type} ${c.notnull === 1 ? 'not null' : 'null'} default ${c.dflt_value ?? '-'} pk ${c.pk}`)
    }
  }
  for (const list of Object.values(out)) list.sort()
  return out
}

async function describePostgres (knex: Knex): Promise<SchemaDescription> {
  const rows = async (sql: string): Promise<string[]> =>
    ((await knex.raw(sql)) as { rows: Array<{ d: string }> }).rows.map((r) => r.d).filter((d) => !/\bknex_/.test(d)).sort()
  return {
    table: await rows(`select table_name || ' ' || table_type as d from information_schema.tables where table_schema = 'public'`),
    column: await rows(`select table_name || '.' || column_name || ' ' || data_type || coalesce('(' || character_maximum_length || ')', '') ||
      ' ' || case when is_nullable = 'YES' then 'null' else 'not null' end || ' default ' || coalesce(column_default, '-') as d
      from information_schema.columns where table_schema = 'public'`),
    constraint: await rows(`select conrelid::regclass::text || ' ' || conname || ': ' || pg_get_constraintdef(c.oid) as d
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public'`),
    index: await rows(`select indexdef as d from pg_indexes where schemaname = 'public'`),
    trigger: await rows(`select pg_get_triggerdef(t.oid) as d from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and not t.tgisinternal`),
    function: await rows(`select p.proname || ': ' || pg_get_functiondef(p.oid) as d from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`),
    extension: await rows(`select extname as d from pg_extension`),
    sequence: await rows(`select sequence_name || ' ' || data_type as d from information_schema.sequences where sequence_schema = 'public'`)
  }
}
