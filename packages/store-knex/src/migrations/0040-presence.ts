import type { Knex } from 'knex'

/**
 * Presence (issue 35, collision detection): who is viewing or typing on a
 * ticket, one row per (ticket, user), kept alive by heartbeats until
 * `expires_at`. Reads ask for the live rows of a ticket (the primary key's
 * prefix); the prune job deletes by `expires_at` (its index). Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('ticket_presence', (t) => {
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.string('state', 16).notNullable()
    t.datetime('since', { useTz: false }).notNullable()
    t.datetime('expires_at', { useTz: false }).notNullable()
    t.primary(['ticket_id', 'user_id'])
    t.index(['expires_at'], 'ticket_presence_expires_at_index')
    t.index(['user_id'], 'ticket_presence_user_id_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('ticket_presence')
}
