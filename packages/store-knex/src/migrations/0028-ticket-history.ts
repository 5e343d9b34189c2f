import type { Knex } from 'knex'

/**
 * Ticket history (issue 31): one row per changed field of a ticket, written
 * in the transaction of the change: who (kind, user, a name that stays),
 * the field, its old and new values as JSON text, whether the owner sees it,
 * the door it came through, when. Read per ticket in id order, so indexed
 * (ticket_id, id); gone with the ticket. Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('ticket_history', (t) => {
    t.increments('id').primary()
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.string('actor_kind', 16).notNullable()
    t.integer('actor_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.string('actor_name', 255).nullable()
    t.string('field', 64).notNullable()
    t.text('old_value').nullable()
    t.text('new_value').nullable()
    t.boolean('public').notNullable().defaultTo(false)
    t.string('door', 16).notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.index(['ticket_id', 'id'], 'ticket_history_ticket_id_id_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('ticket_history')
}
