import type { Knex } from 'knex'

/**
 * The version of the trigger list (issue 32): one row whose `token` changes
 * with every insert, update or delete on `triggers`, made by the database
 * itself (SQLite: row triggers; PostgreSQL: a statement-level trigger), so no
 * write to `triggers` can leave it unchanged, whoever makes it (any instance,
 * a script, psql). Each instance keeps its active triggers in memory and
 * reads only this token in the transaction of a ticket change: a different
 * token is a change committed elsewhere and the list is read again. The token
 * is random, never a counter, so a rolled-back change cannot leave another
 * instance's later change with a token already cached. Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('trigger_list_version', (t) => {
    t.integer('id').primary()
    t.string('token', 64).notNullable()
  })
  await knex('trigger_list_version').insert({ id: 1, token: 'initial' })
  if (knex.client.config.client === 'pg') {
    await knex.raw(`create function helpdesk_trigger_list_changed() returns trigger language plpgsql as $$
begin
  update trigger_list_version set token = md5(random()::text || clock_timestamp()::text || txid_current()::text) where id = 1;
  return null;
end
$$`)
    await knex.raw('create trigger triggers_list_version after insert or update or delete or truncate on triggers ' +
      'for each statement execute function helpdesk_trigger_list_changed()')
    return
  }
  for (const operation of ['insert', 'update', 'delete']) {
    await knex.raw(`create trigger triggers_list_version_${operation} after ${operation} on triggers for each row ` +
      'begin update trigger_list_version set token = lower(hex(randomblob(16))) where id = 1; end')
  }
}

export async function down (knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw('drop trigger if exists triggers_list_version on triggers')
    await knex.raw('drop function if exists helpdesk_trigger_list_changed()')
  } else {
    for (const operation of ['insert', 'update', 'delete']) await knex.raw(`drop trigger if exists triggers_list_version_${operation}`)
  }
  await knex.schema.dropTable('trigger_list_version')
}
