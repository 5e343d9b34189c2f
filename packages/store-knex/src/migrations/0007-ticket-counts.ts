import type { Knex } from 'knex'
import { dialectOfKnex } from '../dialects/index.js'
import { ticketCounts } from '../repositories/ticket-counts.js'

/**
 * Ticket counts per (category, status, assigned agent, privacy), kept by
 * triggers: list totals read a few of these rows instead of counting
 * millions of tickets.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable(ticketCounts.table, (t) => {
    t.integer('category_id').notNullable()
    t.integer('status').notNullable()
    // 0 for unassigned tickets: a primary key cannot hold null.
    t.integer('assigned_agent_id').notNullable()
    t.boolean('private').notNullable()
    t.bigInteger('total').notNullable().defaultTo(0)
    t.primary(ticketCounts.dimensions.map((d) => d.column))
  })
  await dialectOfKnex(knex).countTriggers.create(knex, ticketCounts)
}

export async function down (knex: Knex): Promise<void> {
  await dialectOfKnex(knex).countTriggers.drop(knex, ticketCounts)
  await knex.schema.dropTable(ticketCounts.table)
}
