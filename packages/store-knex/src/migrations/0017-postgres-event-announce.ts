import type { Knex } from 'knex'

/**
 * PostgreSQL: the event log announces its new rows itself. A statement-level
 * trigger sends the ids each insert appended on the `helpdesk_events`
 * channel (`pg_notify`, at most 500 ids per notification, far below its
 * 8,000-byte limit), which PostgreSQL delivers on commit and drops on
 * rollback, exactly as the store's own `select pg_notify(...)` did; a write
 * saves that round trip, and no insert into the log can go unannounced.
 * Frozen: the channel name is written out. SQLite: nothing to do (its
 * notifier is in-process).
 */
export async function up (knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return
  await knex.raw(`create function helpdesk_announce_events() returns trigger language plpgsql as $$
declare
  ids text;
begin
  for ids in
    select string_agg(id::text, ',' order by id)
    from (select id, (row_number() over (order by id) - 1) / 500 as part from appended) numbered
    group by part order by part
  loop
    perform pg_notify('helpdesk_events', ids);
  end loop;
  return null;
end
$$`)
  await knex.raw('create trigger event_log_announce after insert on event_log referencing new table as appended ' +
    'for each statement execute function helpdesk_announce_events()')
}

export async function down (knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return
  await knex.raw('drop trigger if exists event_log_announce on event_log')
  await knex.raw('drop function if exists helpdesk_announce_events()')
}
