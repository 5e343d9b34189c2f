import type { Knex } from 'knex'

/**
 * Triggers (issue 32): rules run in the transaction of a ticket change.
 * `events`, `conditions` and `actions` are JSON validated by core's rule
 * language; `position` orders them (the pass runs active ones in order, then
 * by id). Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('triggers', (t) => {
    t.increments('id')
    t.string('name', 250).notNullable()
    t.integer('position').notNullable().defaultTo(0)
    t.boolean('active').notNullable().defaultTo(true)
    t.text('events').notNullable()
    t.text('conditions').notNullable()
    t.text('actions').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['active', 'position', 'id'], 'triggers_active_position_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('triggers')
}
