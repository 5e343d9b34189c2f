import type { Knex } from 'knex'

/**
 * Presence per browser tab: `ticket_presence` (migration 0040) is keyed by
 * (ticket_id, user_id, client_id), so an agent with a ticket open in two tabs
 * who closes one stays present through the other; reads sum a person's live
 * tabs into one entry. `client_id` is the tab's opaque id (`default` for API
 * clients that send none).
 *
 * A primary key cannot be altered in place on SQLite, so the table is
 * recreated empty (on both databases, one path): its rows live 30 seconds
 * and every open tab beats again within 10, so the upgrade costs at most one
 * heartbeat's worth of "who else is here". Frozen DDL.
 */
async function createPresence (knex: Knex, perTab: boolean): Promise<void> {
  await knex.schema.createTable('ticket_presence', (t) => {
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    if (perTab) t.string('client_id', 64).notNullable()
    t.string('state', 16).notNullable()
    t.datetime('since', { useTz: false }).notNullable()
    t.datetime('expires_at', { useTz: false }).notNullable()
    t.primary(perTab ? ['ticket_id', 'user_id', 'client_id'] : ['ticket_id', 'user_id'])
    t.index(['expires_at'], 'ticket_presence_expires_at_index')
    t.index(['user_id'], 'ticket_presence_user_id_index')
  })
}

export async function up (knex: Knex): Promise<void> {
  await knex.schema.dropTable('ticket_presence')
  await createPresence(knex, true)
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('ticket_presence')
  await createPresence(knex, false)
}
