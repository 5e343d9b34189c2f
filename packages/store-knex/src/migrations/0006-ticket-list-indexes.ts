import type { Knex } from 'knex'

/**
 * Indexes that deliver a ticket list's sort directly, alone and under each
 * exact filter, so a page reads its 15 index entries instead of sorting every
 * matching row: every sort the list offers, unfiltered; and the id and time
 * sorts (what clients page through) under `filter[status]`,
 * `filter[categories]`, `filter[agents]` and a customer's own tickets. Each
 * ends with `id`, the tie-breaker of every sort (PostgreSQL needs it spelled
 * out; SQLite appends the rowid anyway). Other combinations (a filter with a
 * title, status or privacy sort) read the sort's index and skip the rows the
 * filter rejects.
 */
const added: Array<[string, string[]]> = [
  ['tickets_created_at_id_index', ['created_at', 'id']],
  ['tickets_updated_at_id_index', ['updated_at', 'id']],
  ['tickets_title_id_index', ['title', 'id']],
  ['tickets_status_id_index', ['status', 'id']],
  ['tickets_private_id_index', ['private', 'id']],
  ['tickets_status_created_at_id_index', ['status', 'created_at', 'id']],
  ['tickets_status_updated_at_id_index', ['status', 'updated_at', 'id']],
  ['tickets_category_id_id_index', ['category_id', 'id']],
  ['tickets_category_id_created_at_id_index', ['category_id', 'created_at', 'id']],
  ['tickets_category_id_updated_at_id_index', ['category_id', 'updated_at', 'id']],
  ['tickets_assigned_agent_id_id_index', ['assigned_agent_id', 'id']],
  ['tickets_assigned_agent_id_created_at_id_index', ['assigned_agent_id', 'created_at', 'id']],
  ['tickets_assigned_agent_id_updated_at_id_index', ['assigned_agent_id', 'updated_at', 'id']],
  ['tickets_user_id_id_index', ['user_id', 'id']],
  ['tickets_user_id_created_at_id_index', ['user_id', 'created_at', 'id']],
  ['tickets_user_id_updated_at_id_index', ['user_id', 'updated_at', 'id']]
]

/** The tickets migration's indexes that the ones above make redundant. */
const superseded: Array<[string, string[]]> = [
  ['tickets_created_at_index', ['created_at']],
  ['tickets_updated_at_index', ['updated_at']],
  ['tickets_status_created_at_index', ['status', 'created_at']],
  ['tickets_category_id_created_at_index', ['category_id', 'created_at']],
  ['tickets_user_id_created_at_index', ['user_id', 'created_at']]
]

export async function up (knex: Knex): Promise<void> {
  await knex.schema.alterTable('tickets', (t) => {
    for (const [name, columns] of added) t.index(columns, name)
  })
  await knex.schema.alterTable('tickets', (t) => {
    for (const [name] of superseded) t.dropIndex([], name)
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.alterTable('tickets', (t) => {
    for (const [name, columns] of superseded) t.index(columns, name)
  })
  await knex.schema.alterTable('tickets', (t) => {
    for (const [name] of added) t.dropIndex([], name)
  })
}
