import type { Knex } from 'knex'

/**
 * Time-based automations and assignment rules (issue 32).
 * - `automations`: rules a recurring job runs; `automation_marks` remembers
 *   the anchor instant each fired on per ticket (fire once until re-armed).
 * - `tickets.status_changed_at` (backfilled from `updated_at`) with the
 *   index `(status, status_changed_at)`: "pending for 7 days" is a range
 *   read on it, not a scan.
 * - `users.available` (the "away" switch) and `users.last_assigned_at` (the
 *   round-robin turn, kept in the rows so it survives restarts).
 * - `categories.assignment`: manual, round_robin or least_open.
 * Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('automations', (t) => {
    t.increments('id')
    t.string('name', 250).notNullable()
    t.boolean('active').notNullable().defaultTo(true)
    t.text('time_condition').notNullable()
    t.text('conditions').notNullable()
    t.text('actions').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
  })
  await knex.schema.createTable('automation_marks', (t) => {
    t.integer('automation_id').notNullable().references('id').inTable('automations').onDelete('CASCADE')
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.datetime('anchor_at', { useTz: false }).notNullable()
    t.primary(['automation_id', 'ticket_id'])
    t.index(['ticket_id'], 'automation_marks_ticket_id_index')
  })
  await knex.schema.alterTable('tickets', (t) => {
    t.datetime('status_changed_at', { useTz: false }).nullable()
  })
  await knex('tickets').update({ status_changed_at: knex.ref('updated_at') })
  await knex.schema.alterTable('tickets', (t) => {
    t.index(['status', 'status_changed_at'], 'tickets_status_status_changed_at_index')
  })
  await knex.schema.alterTable('users', (t) => {
    t.boolean('available').notNullable().defaultTo(true)
    t.datetime('last_assigned_at', { useTz: false }).nullable()
  })
  await knex.schema.alterTable('categories', (t) => {
    t.string('assignment', 20).notNullable().defaultTo('manual')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.alterTable('categories', (t) => { t.dropColumn('assignment') })
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('last_assigned_at')
    t.dropColumn('available')
  })
  await knex.schema.alterTable('tickets', (t) => {
    t.dropIndex(['status', 'status_changed_at'], 'tickets_status_status_changed_at_index')
    t.dropColumn('status_changed_at')
  })
  await knex.schema.dropTable('automation_marks')
  await knex.schema.dropTable('automations')
}
