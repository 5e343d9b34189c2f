import type { Knex } from 'knex'

/**
 * The event log (every committed domain event, the channels' outbox) and the
 * job table (background work, enqueued in the transaction of the change).
 * Frozen: this migration's DDL never changes.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('event_log', (t) => {
    t.bigIncrements('id')
    t.string('type', 100).notNullable()
    // No foreign keys: the log outlives the users and tickets it mentions.
    t.integer('actor_id').nullable()
    t.integer('ticket_id').nullable()
    t.text('payload').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.index(['created_at'], 'event_log_created_at_index')
  })

  await knex.schema.createTable('jobs', (t) => {
    t.bigIncrements('id')
    t.string('type', 100).notNullable()
    t.text('payload').notNullable()
    t.string('status', 16).notNullable()
    t.integer('attempts').notNullable().defaultTo(0)
    t.integer('max_attempts').notNullable()
    t.datetime('run_at', { useTz: false }).notNullable()
    t.datetime('locked_until', { useTz: false }).nullable()
    t.string('locked_by', 64).nullable()
    t.string('unique_key', 191).nullable()
    t.text('last_error').nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['status', 'run_at'], 'jobs_status_run_at_index')
    t.index(['type', 'status'], 'jobs_type_status_index')
  })
  // One pending-or-running job per key (same statement on both databases).
  await knex.raw(`create unique index jobs_unique_key_active on jobs (unique_key)
    where unique_key is not null and status in ('pending', 'running')`)
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('jobs')
  await knex.schema.dropTable('event_log')
}
