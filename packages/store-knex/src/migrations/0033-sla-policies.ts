import type { Knex } from 'knex'

/**
 * SLA policies on business hours (issue 31), part one: calendars (time zone,
 * hours per weekday as JSON, holidays as JSON, a 24/7 flag) with a built-in
 * 24/7 calendar in UTC, and ordered policies (conditions as JSON, targets in
 * business minutes, a calendar, warnings) with a default policy that applies
 * when no other does (no targets until an administrator sets them). Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('sla_calendars', (t) => {
    t.increments('id')
    t.string('name', 100).notNullable()
    t.string('time_zone', 64).notNullable()
    t.text('hours').notNullable()
    t.text('holidays').notNullable()
    t.boolean('twenty_four_seven').notNullable()
    t.boolean('built_in').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
  })
  await knex.schema.createTable('sla_policies', (t) => {
    t.increments('id')
    t.string('name', 100).notNullable()
    t.integer('position').notNullable()
    t.boolean('is_default').notNullable()
    t.text('conditions').notNullable()
    t.integer('first_response_minutes').nullable()
    t.integer('next_response_minutes').nullable()
    t.integer('resolution_minutes').nullable()
    t.integer('calendar_id').notNullable().references('id').inTable('sla_calendars')
    t.integer('warning_minutes').nullable()
    t.boolean('warnings_follow_calendar').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['calendar_id'], 'sla_policies_calendar_index')
  })
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
  const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
  await knex('sla_calendars').insert({
    id: 1,
    name: '24/7',
    time_zone: 'UTC',
    hours: JSON.stringify(Object.fromEntries(days.map((d) => [d, []]))),
    holidays: '[]',
    twenty_four_seven: true,
    built_in: true,
    created_at: now,
    updated_at: now
  })
  await knex('sla_policies').insert({
    id: 1,
    name: 'Default',
    position: 1,
    is_default: true,
    conditions: '{}',
    first_response_minutes: null,
    next_response_minutes: null,
    resolution_minutes: null,
    calendar_id: 1,
    warning_minutes: 30,
    warnings_follow_calendar: true,
    created_at: now,
    updated_at: now
  })
  if (knex.client.config.client === 'pg') {
    await knex.raw("select setval(pg_get_serial_sequence('sla_calendars', 'id'), 1)")
    await knex.raw("select setval(pg_get_serial_sequence('sla_policies', 'id'), 1)")
  }
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('sla_policies')
  await knex.schema.dropTable('sla_calendars')
}
