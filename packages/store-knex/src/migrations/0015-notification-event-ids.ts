import type { Knex } from 'knex'

/**
 * Which logged event wrote a notification (`event_log.id`), so the event
 * stream reads a batch's notifications by event id in one query. Frozen DDL.
 * No foreign key: the event log is pruned, notifications stay.
 */
export async function up (knex: Knex): Promise<void> {
  const type = knex.client.config.client === 'pg' ? 'bigint' : 'integer'
  await knex.raw(`ALTER TABLE notifications ADD COLUMN event_id ${type} NULL`)
  await knex.raw('CREATE INDEX notifications_event_id_index ON notifications (event_id)')
}

export async function down (knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX notifications_event_id_index')
  await knex.raw('ALTER TABLE notifications DROP COLUMN event_id')
}
