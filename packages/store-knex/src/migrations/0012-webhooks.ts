import type { Knex } from 'knex'

/** Webhook endpoints and their deliveries. Frozen: this migration's DDL never changes. */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.increments('id')
    t.string('url', 2048).notNullable()
    t.text('events').notNullable()
    t.string('description', 255).nullable()
    t.boolean('active').notNullable().defaultTo(true)
    t.string('secret', 100).notNullable()
    t.string('previous_secret', 100).nullable()
    t.datetime('previous_secret_expires_at', { useTz: false }).nullable()
    t.integer('consecutive_failures').notNullable().defaultTo(0)
    t.datetime('failing_since', { useTz: false }).nullable()
    t.datetime('disabled_at', { useTz: false }).nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['active'], 'webhook_endpoints_active_index')
  })

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id')
    t.integer('endpoint_id').notNullable().references('id').inTable('webhook_endpoints').onDelete('CASCADE')
    // No foreign key: a delivery outlives the event-log entry it sent.
    t.bigInteger('event_id').notNullable()
    t.string('event_type', 100).notNullable()
    t.string('status', 16).notNullable()
    t.integer('attempts').notNullable().defaultTo(0)
    t.integer('response_status').nullable()
    t.integer('duration_ms').nullable()
    t.text('error').nullable()
    t.datetime('next_attempt_at', { useTz: false }).nullable()
    // The exact bytes sent, so every retry and redelivery resends them.
    t.text('body').nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['endpoint_id', 'id'], 'webhook_deliveries_endpoint_id_index')
    t.index(['created_at'], 'webhook_deliveries_created_at_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries')
  await knex.schema.dropTable('webhook_endpoints')
}
