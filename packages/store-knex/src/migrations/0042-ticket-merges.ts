import type { Knex } from 'knex'

/**
 * Merging and splitting tickets (issue 32). `tickets.merged_into_id` names
 * the ticket a merged one went into (replies to it land there); it carries no
 * foreign key, so adding it never rebuilds the SQLite table (its triggers and
 * search index stay): a target deleted later leaves a dangling id, which the
 * landing rule reads as "not merged". `ticket_merges` records each merge and
 * split: what moved (`moves`, JSON: comment ids, replies made private, the
 * comment holding the source's body, participants and field answers added),
 * so a merge can be undone within the grace period; `undone_at` marks an
 * undone one. Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.alterTable('tickets', (t) => {
    t.integer('merged_into_id').nullable()
  })
  await knex.schema.createTable('ticket_merges', (t) => {
    t.increments('id')
    t.string('kind', 10).notNullable()
    t.integer('source_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('target_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('actor_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.text('moves').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('undone_at', { useTz: false }).nullable()
    t.index(['source_id', 'id'], 'ticket_merges_source_id_index')
    t.index(['target_id', 'id'], 'ticket_merges_target_id_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('ticket_merges')
  await knex.schema.alterTable('tickets', (t) => {
    t.dropColumn('merged_into_id')
  })
}
