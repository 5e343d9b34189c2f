import type { Knex } from 'knex'

/**
 * Reports, part two (issue 33): percentiles over long ranges from duration
 * histograms, business times and SLA attainment (docs/reports.md).
 *
 * - `report_duration_histogram`: per UTC day (`YYYY-MM-DD`) and UTC month
 *   (`YYYY-MM`), per duration (calendar and business first response and
 *   resolution), per breakdown (`all`, `category`, `agent`, `channel`, with
 *   the group's value as text) and log-spaced bucket: how many tickets and
 *   the sum of their durations. Kept with the hourly rollup by the same job.
 * - `report_ticket_facts` gains the business times and each SLA target's
 *   verdict; `report_hourly` and `report_daily` the met and breached counts
 *   per target (at the ticket's creation). An index covering the backlog.
 * The rollups are marked unbuilt: the job's next run computes every ticket
 * again (as `helpdesk reports:rebuild` does), filling the new columns.
 * Frozen DDL.
 */
const TARGETS = ['first_response', 'next_response', 'resolution'] as const

export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('report_duration_histogram', (t) => {
    t.string('metric', 20).notNullable()
    t.string('dim', 8).notNullable()
    t.string('period', 10).notNullable()
    t.string('grp', 16).notNullable()
    t.integer('bucket').notNullable()
    t.integer('tickets').notNullable()
    t.bigInteger('total_s').notNullable()
    // A range's cells of one duration and breakdown are one stretch of the key; groups and buckets follow.
    t.primary(['metric', 'dim', 'period', 'grp', 'bucket'])
  })
  await knex.schema.alterTable('report_ticket_facts', (t) => {
    t.integer('first_response_bs').nullable()
    t.integer('resolution_bs').nullable()
    for (const target of TARGETS) t.string(`sla_${target}`, 8).nullable()
    // The backlog (open and pending tickets by age, grouped) from the index alone: at 1M it looked up every open fact.
    t.index(['status', 'created_at', 'category_id', 'agent_id', 'channel'], 'report_ticket_facts_open_index')
  })
  for (const table of ['report_hourly', 'report_daily']) {
    await knex.schema.alterTable(table, (t) => {
      for (const target of TARGETS) {
        t.integer(`sla_${target}_met`).notNullable().defaultTo(0)
        t.integer(`sla_${target}_breached`).notNullable().defaultTo(0)
      }
    })
  }
  await knex('report_state').where('name', 'built').update({ value: 0 })
}

export async function down (knex: Knex): Promise<void> {
  for (const table of ['report_hourly', 'report_daily']) {
    await knex.schema.alterTable(table, (t) => {
      for (const target of TARGETS) {
        t.dropColumn(`sla_${target}_met`)
        t.dropColumn(`sla_${target}_breached`)
      }
    })
  }
  await knex.schema.alterTable('report_ticket_facts', (t) => {
    t.dropIndex([], 'report_ticket_facts_open_index')
  })
  await knex.schema.alterTable('report_ticket_facts', (t) => {
    t.dropColumn('first_response_bs')
    t.dropColumn('resolution_bs')
    for (const target of TARGETS) t.dropColumn(`sla_${target}`)
  })
  await knex.schema.dropTable('report_duration_histogram')
  await knex('report_state').where('name', 'built').update({ value: 0 })
}
