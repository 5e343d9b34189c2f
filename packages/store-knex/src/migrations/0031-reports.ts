import type { Knex } from 'knex'

/**
 * Reports (issue 33): the rollups reports answer from, maintained by the
 * `reports.update` job from the event log (docs/reports.md).
 *
 * - `ticket_channels`: the door each ticket came in through (console, api,
 *   mail, import, cli), written in the creating transaction. Tickets older
 *   than this migration have none (reported as `unknown`), except imported
 *   ones, backfilled here as `import`.
 * - `report_ticket_facts`: one row per ticket, recomputed from the ticket,
 *   its comments and its resolutions whenever an event touches it (so
 *   applying an event twice changes nothing). No foreign key: a deleted
 *   ticket's row is removed by the job, which subtracts it from the hourly
 *   rollup first.
 * - `report_hourly`: counts and sums per UTC hour, category, agent (0: none)
 *   and channel; hours let a day be cut in any whole-hour time zone. A
 *   ticket counts at the hour it was created (created, first responses) and
 *   at the hour it was last resolved (resolved, resolution time, replies,
 *   reopens, rating). Priority and SLA columns join the key when they exist.
 * - `report_daily`: the same sums per UTC day (`YYYY-MM-DD`), kept with the
 *   hourly ones: a long range reads whole days, and hours only at its edges.
 * - `report_state`: the job's cursor in the event log, and whether the
 *   rollups were ever built from every ticket.
 * Frozen DDL.
 */
/** The sums an hourly or daily rollup row keeps, in the same columns for both. */
function sumColumns (t: Knex.CreateTableBuilder): void {
  t.integer('created').notNullable().defaultTo(0)
  t.integer('first_responded').notNullable().defaultTo(0)
  t.bigInteger('first_response_s').notNullable().defaultTo(0)
  t.integer('resolved').notNullable().defaultTo(0)
  t.bigInteger('resolution_s').notNullable().defaultTo(0)
  t.integer('replies').notNullable().defaultTo(0)
  t.integer('reopened').notNullable().defaultTo(0)
  t.integer('reopens').notNullable().defaultTo(0)
  t.integer('rated_good').notNullable().defaultTo(0)
  t.integer('rated_bad').notNullable().defaultTo(0)
}

export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('ticket_channels', (t) => {
    t.integer('ticket_id').primary().references('id').inTable('tickets').onDelete('CASCADE')
    t.string('channel', 16).notNullable()
  })
  await knex.raw(
    "insert into ticket_channels (ticket_id, channel) select distinct e.local_id, 'import' from import_external_ids e " +
    "join tickets t on t.id = e.local_id where e.source_type = 'ticket'"
  )
  await knex.schema.createTable('report_ticket_facts', (t) => {
    t.integer('ticket_id').primary()
    t.integer('category_id').notNullable()
    t.integer('agent_id').nullable()
    t.string('channel', 16).notNullable()
    t.integer('status').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('first_response_at', { useTz: false }).nullable()
    t.datetime('resolved_at', { useTz: false }).nullable()
    t.integer('first_response_s').nullable()
    t.integer('resolution_s').nullable()
    t.integer('replies').notNullable()
    t.integer('reopens').notNullable()
    t.string('rating', 4).nullable()
    // Covering the percentile reads: a range's durations and groups come from the index alone.
    t.index(['created_at', 'first_response_s', 'category_id', 'agent_id', 'channel'], 'report_ticket_facts_created_at_index')
    t.index(['resolved_at', 'resolution_s', 'category_id', 'agent_id', 'channel'], 'report_ticket_facts_resolved_at_index')
    t.index(['category_id', 'created_at'], 'report_ticket_facts_category_created_index')
    t.index(['agent_id', 'created_at'], 'report_ticket_facts_agent_created_index')
    t.index(['category_id', 'resolved_at'], 'report_ticket_facts_category_resolved_index')
    t.index(['agent_id', 'resolved_at'], 'report_ticket_facts_agent_resolved_index')
    t.index(['status', 'created_at'], 'report_ticket_facts_status_created_index')
  })
  await knex.schema.createTable('report_hourly', (t) => {
    t.datetime('hour', { useTz: false }).notNullable()
    // The hour of the day (0-23) of `hour`: a local day of another zone is the UTC day with a few of these hours moved.
    t.integer('hod').notNullable()
    t.integer('category_id').notNullable()
    t.integer('agent_id').notNullable()
    t.string('channel', 16).notNullable()
    sumColumns(t)
    t.primary(['hour', 'category_id', 'agent_id', 'channel'])
    t.index(['category_id', 'hour'], 'report_hourly_category_hour_index')
    t.index(['agent_id', 'hour'], 'report_hourly_agent_hour_index')
    t.index(['hod', 'hour'], 'report_hourly_hod_hour_index')
  })
  // The same sums per UTC day: long ranges read days, and hours only at their edges.
  await knex.schema.createTable('report_daily', (t) => {
    t.string('day', 10).notNullable()
    t.integer('category_id').notNullable()
    t.integer('agent_id').notNullable()
    t.string('channel', 16).notNullable()
    sumColumns(t)
    t.primary(['day', 'category_id', 'agent_id', 'channel'])
    t.index(['category_id', 'day'], 'report_daily_category_day_index')
    t.index(['agent_id', 'day'], 'report_daily_agent_day_index')
  })
  await knex.schema.createTable('report_state', (t) => {
    t.string('name', 32).primary()
    t.bigInteger('value').notNullable()
  })
  // `built` 0: the first run of the job computes every ticket (an upgrade with tickets gets its reports without a command).
  await knex('report_state').insert([{ name: 'cursor', value: 0 }, { name: 'built', value: 0 }])
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('report_state')
  await knex.schema.dropTable('report_daily')
  await knex.schema.dropTable('report_hourly')
  await knex.schema.dropTable('report_ticket_facts')
  await knex.schema.dropTable('ticket_channels')
}
