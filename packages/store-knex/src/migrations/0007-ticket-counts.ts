import type { Knex } from 'knex'
import { createTicketCountTriggers, dropTicketCountTriggers } from './frozen/ticket-counts-0007.js'

/**
 * Ticket counts per (category, status, assigned agent, privacy), kept by
 * triggers: list totals read a few of these rows instead of counting
 * millions of tickets.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('ticket_counts', (t) => {
    t.integer('category_id').notNullable()
    t.integer('status').notNullable()
    // 0 for unassigned tickets: a primary key cannot hold null.
    t.integer('assigned_agent_id').notNullable()
    t.boolean('private').notNullable()
    t.bigInteger('total').notNullable().defaultTo(0)
    t.primary(['category_id', 'status', 'assigned_agent_id', 'private'])
  })
  await createTicketCountTriggers(knex)
}

export async function down (knex: Knex): Promise<void> {
  await dropTicketCountTriggers(knex)
  await knex.schema.dropTable('ticket_counts')
}
