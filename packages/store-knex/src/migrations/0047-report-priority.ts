import type { Knex } from 'knex'

/**
 * Reports by priority (issue 33): every report can be grouped and filtered
 * by a ticket's priority (as it is now), like category, agent and channel
 * (docs/reports.md).
 *
 * - `report_ticket_facts` gains `priority` (the name: low, normal, high,
 *   urgent); the covering indexes of the percentile reads and of the backlog
 *   gain it as their last column, so a report grouped by priority still reads
 *   the index alone.
 * - `report_hourly` and `report_daily` are keyed by priority too: their
 *   primary keys become `(hour|day, category_id, agent_id, channel,
 *   priority)`. A primary key cannot be altered in place on SQLite (the table
 *   is copied either way), and an existing row cannot be split by priority
 *   without its tickets, so both tables are recreated empty with the new key.
 * - `report_duration_histogram` gets the breakdown `priority` (no DDL: `dim`
 *   is text).
 * The facts and the histograms are emptied as well and the rollups marked
 * unbuilt: the job's next run recomputes every ticket (as
 * `helpdesk reports:rebuild` does), so the upgrade costs one rebuild (about
 * ten minutes at a million tickets); until it finishes, reports count only
 * what it has computed. Frozen DDL.
 */
const TARGETS = ['first_response', 'next_response', 'resolution'] as const

/** The sums of an hourly or daily row (migrations 0031 and 0044). */
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
  for (const target of TARGETS) {
    t.integer(`sla_${target}_met`).notNullable().defaultTo(0)
    t.integer(`sla_${target}_breached`).notNullable().defaultTo(0)
  }
}

/** The hourly and daily rollups, keyed with priority or (down) without. */
async function createRollups (knex: Knex, withPriority: boolean): Promise<void> {
  const key = withPriority ? ['category_id', 'agent_id', 'channel', 'priority'] : ['category_id', 'agent_id', 'channel']
  await knex.schema.createTable('report_hourly', (t) => {
    t.datetime('hour', { useTz: false }).notNullable()
    t.integer('hod').notNullable()
    t.integer('category_id').notNullable()
    t.integer('agent_id').notNullable()
    t.string('channel', 16).notNullable()
    if (withPriority) t.string('priority', 8).notNullable()
    sumColumns(t)
    t.primary(['hour', ...key])
    t.index(['category_id', 'hour'], 'report_hourly_category_hour_index')
    t.index(['agent_id', 'hour'], 'report_hourly_agent_hour_index')
    t.index(['hod', 'hour'], 'report_hourly_hod_hour_index')
  })
  await knex.schema.createTable('report_daily', (t) => {
    t.string('day', 10).notNullable()
    t.integer('category_id').notNullable()
    t.integer('agent_id').notNullable()
    t.string('channel', 16).notNullable()
    if (withPriority) t.string('priority', 8).notNullable()
    sumColumns(t)
    t.primary(['day', ...key])
    t.index(['category_id', 'day'], 'report_daily_category_day_index')
    t.index(['agent_id', 'day'], 'report_daily_agent_day_index')
  })
}

/** The facts' covering indexes (0031, 0044), with `priority` last or without it. */
const COVERING = {
  report_ticket_facts_created_at_index: ['created_at', 'first_response_s', 'category_id', 'agent_id', 'channel'],
  report_ticket_facts_resolved_at_index: ['resolved_at', 'resolution_s', 'category_id', 'agent_id', 'channel'],
  report_ticket_facts_open_index: ['status', 'created_at', 'category_id', 'agent_id', 'channel']
} as const

async function coveringIndexes (knex: Knex, withPriority: boolean): Promise<void> {
  await knex.schema.alterTable('report_ticket_facts', (t) => {
    for (const name of Object.keys(COVERING)) t.dropIndex([], name)
  })
  await knex.schema.alterTable('report_ticket_facts', (t) => {
    for (const [name, columns] of Object.entries(COVERING)) t.index(withPriority ? [...columns, 'priority'] : [...columns], name)
  })
}

/** Empties what the job computes and marks it unbuilt: its next run recomputes every ticket. */
async function unbuilt (knex: Knex): Promise<void> {
  await knex('report_ticket_facts').delete()
  await knex('report_duration_histogram').delete()
  await knex('report_state').where('name', 'built').update({ value: 0 })
}

export async function up (knex: Knex): Promise<void> {
  await unbuilt(knex)
  await knex.schema.alterTable('report_ticket_facts', (t) => {
    t.string('priority', 8).notNullable().defaultTo('normal')
  })
  await coveringIndexes(knex, true)
  await knex.schema.dropTable('report_daily')
  await knex.schema.dropTable('report_hourly')
  await createRollups(knex, true)
}

export async function down (knex: Knex): Promise<void> {
  await unbuilt(knex)
  await knex.schema.dropTable('report_daily')
  await knex.schema.dropTable('report_hourly')
  await createRollups(knex, false)
  await coveringIndexes(knex, false)
  await knex.schema.alterTable('report_ticket_facts', (t) => {
    t.dropColumn('priority')
  })
}
