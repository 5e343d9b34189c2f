import type { Knex } from 'knex'

/**
 * The keys that sign reply addresses bound to a ticket and a recipient
 * (`support+<ticket>.<recipient>.<key>.<mac>@…`): the newest active key
 * signs, every active one verifies, a retired one no longer does. Kept in
 * the database so every instance signs and verifies alike; nothing grows per
 * mail. Frozen: this migration's DDL never changes.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_reply_keys', (t) => {
    t.increments('id')
    t.string('secret', 128).notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('retired_at', { useTz: false }).nullable()
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('mail_reply_keys')
}
