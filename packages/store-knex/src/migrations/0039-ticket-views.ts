import type { Knex } from 'knex'

/**
 * Views of the ticket list (issue 35): the five built-in ones (`key` set;
 * their filters are core's, per viewer) and the ones agents save: a name, a
 * filter and a sort of `GET /tickets` (JSON), private (`user_id`'s alone) or
 * shared with the team. A private view goes with its owner; a shared one
 * outlives its creator. Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('ticket_views', (t) => {
    t.increments('id')
    t.string('key', 20).nullable().unique()
    t.string('name', 100).notNullable()
    t.boolean('shared').notNullable().defaultTo(false)
    t.integer('user_id').nullable().references('id').inTable('users').onDelete('CASCADE')
    t.text('filters').notNullable()
    t.string('sort', 200).notNullable()
    t.integer('position').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['shared', 'position'], 'ticket_views_shared_position_index')
    t.index(['user_id'], 'ticket_views_user_id_index')
  })
  const at = '2026-12-05 00:00:00'
  const builtIn = [['mine', 'Mine'], ['unassigned', 'Unassigned'], ['open', 'All open'], ['pending', 'Pending'], ['closed', 'Recently closed']]
  await knex('ticket_views').insert(builtIn.map(([key, name], index) => ({
    key, name, shared: true, user_id: null, filters: '{}', sort: '-updated_at', position: index + 1, created_at: at, updated_at: at
  })))
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('ticket_views')
}
