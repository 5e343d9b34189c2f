import type { Knex } from 'knex'

/**
 * Customer satisfaction (issue 33): one row per closing of a ticket (its
 * resolutions, numbered 1, 2, ... per ticket) with the owner's rating of it
 * once given (good / bad, a comment, who rated, the assignee and category
 * then, the door it came through). Indexed by time for reports: ratings per
 * day, per agent, per category; closings per day (response rates). Tickets
 * closed before this migration get their first resolution (closed at their
 * last update), so their owners may rate them. Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('ticket_resolutions', (t) => {
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('resolution').notNullable()
    t.datetime('closed_at', { useTz: false }).notNullable()
    t.integer('closed_by').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.integer('agent_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.integer('category_id').nullable().references('id').inTable('categories').onDelete('SET NULL')
    t.string('rating', 4).nullable()
    t.text('comment').nullable()
    t.integer('customer_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.string('channel', 16).nullable()
    t.datetime('rated_at', { useTz: false }).nullable()
    t.datetime('rating_updated_at', { useTz: false }).nullable()
    t.primary(['ticket_id', 'resolution'])
    t.index(['rated_at'], 'ticket_resolutions_rated_at_index')
    t.index(['agent_id', 'rated_at'], 'ticket_resolutions_agent_rated_at_index')
    t.index(['category_id', 'rated_at'], 'ticket_resolutions_category_rated_at_index')
    t.index(['closed_at'], 'ticket_resolutions_closed_at_index')
  })
  await knex.raw(
    'insert into ticket_resolutions (ticket_id, resolution, closed_at, closed_by, agent_id, category_id) ' +
    'select id, 1, updated_at, null, assigned_agent_id, category_id from tickets where status = 3'
  )
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('ticket_resolutions')
}
