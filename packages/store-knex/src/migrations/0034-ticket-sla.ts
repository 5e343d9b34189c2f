import type { Knex } from 'knex'

/**
 * SLA policies on business hours (issue 31), part two: each ticket's due
 * times as columns of `tickets` (filterable and sortable on their indexes;
 * `sla_next_due_at`, the earliest due time whose breach is still to be
 * announced, is what the escalation job scans), its SLA state in
 * `ticket_sla` (the timeline the clocks read, so the time used and paused
 * survives a change of policy; each target's last verdict: met, breached, by
 * how much; what was announced), and the warnings and breaches announced,
 * once each per ticket, target and due time (`sla_announcements`, whose key
 * makes two instances announce it once). Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.alterTable('tickets', (t) => {
    t.datetime('first_response_due_at', { useTz: false }).nullable()
    t.datetime('next_response_due_at', { useTz: false }).nullable()
    t.datetime('resolution_due_at', { useTz: false }).nullable()
    t.datetime('sla_next_due_at', { useTz: false }).nullable()
  })
  await knex.schema.alterTable('tickets', (t) => {
    t.index(['first_response_due_at'], 'tickets_first_response_due_at_index')
    t.index(['next_response_due_at'], 'tickets_next_response_due_at_index')
    t.index(['resolution_due_at'], 'tickets_resolution_due_at_index')
    t.index(['sla_next_due_at'], 'tickets_sla_next_due_at_index')
  })
  await knex.schema.createTable('ticket_sla', (t) => {
    t.integer('ticket_id').primary().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('policy_id').nullable().references('id').inTable('sla_policies').onDelete('SET NULL')
    t.text('timeline').notNullable()
    t.text('targets').notNullable()
    t.text('announced').notNullable()
    t.integer('paused_minutes').notNullable()
    t.datetime('evaluated_at', { useTz: false }).notNullable()
    t.index(['policy_id'], 'ticket_sla_policy_index')
  })
  await knex.schema.createTable('sla_announcements', (t) => {
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.string('target', 16).notNullable()
    t.string('kind', 8).notNullable()
    t.datetime('due_at', { useTz: false }).notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.primary(['ticket_id', 'target', 'kind', 'due_at'])
    t.index(['created_at'], 'sla_announcements_created_at_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('sla_announcements')
  await knex.schema.dropTable('ticket_sla')
  await knex.schema.alterTable('tickets', (t) => {
    t.dropIndex(['first_response_due_at'], 'tickets_first_response_due_at_index')
    t.dropIndex(['next_response_due_at'], 'tickets_next_response_due_at_index')
    t.dropIndex(['resolution_due_at'], 'tickets_resolution_due_at_index')
    t.dropIndex(['sla_next_due_at'], 'tickets_sla_next_due_at_index')
  })
  await knex.schema.alterTable('tickets', (t) => {
    t.dropColumn('first_response_due_at')
    t.dropColumn('next_response_due_at')
    t.dropColumn('resolution_due_at')
    t.dropColumn('sla_next_due_at')
  })
}
