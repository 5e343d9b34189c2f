import type { Knex } from 'knex'

const isPostgres = (knex: Knex): boolean => ['pg', 'postgres', 'postgresql'].includes(String(knex.client.config.client))

/*
 * FROZEN: the triggers of migration 0007 as they ran. Imported by that
 * migration only; never edit (see README.md).
 *
 * `ticket_counts` holds `select category_id, status, coalesce(assigned_agent_id, 0),
 * private, count(*) from tickets group by ...` in the transaction of every
 * write to tickets: row triggers on SQLite; on PostgreSQL statement triggers
 * with transition tables, applying each statement's deltas in key order.
 */

const columns = 'category_id, status, assigned_agent_id, private'
const values = (prefix: string): string => `${prefix}category_id, ${prefix}status, coalesce(${prefix}assigned_agent_id, 0), ${prefix}private`

async function fill (knex: Knex): Promise<void> {
  await knex.raw(`insert into ticket_counts (${columns}, total) select ${values('')}, count(*) from tickets group by ${values('')}`)
}

export async function createTicketCountTriggers (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    const rows = (table: string, sign: number): string => `select ${values('')}, ${sign} as n from ${table}`
    const apply = (parts: string[]): string =>
      `insert into ticket_counts (${columns}, total) select ${columns}, total from (` +
      `select ${columns}, sum(n) as total from (${parts.join(' union all ')}) as d (${columns}, n) group by ${columns}` +
      `) as delta where total <> 0 order by ${columns} ` +
      `on conflict (${columns}) do update set total = ticket_counts.total + excluded.total;`
    await knex.raw(`create function ticket_counts_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${apply([rows('new_rows', 1)])}
  elsif tg_op = 'DELETE' then
    ${apply([rows('old_rows', -1)])}
  else
    ${apply([rows('old_rows', -1), rows('new_rows', 1)])}
  end if;
  return null;
end
$$`)
    await knex.raw('create trigger ticket_counts_insert after insert on tickets referencing new table as new_rows for each statement execute function ticket_counts_apply()')
    await knex.raw('create trigger ticket_counts_delete after delete on tickets referencing old table as old_rows for each statement execute function ticket_counts_apply()')
    await knex.raw('create trigger ticket_counts_update after update on tickets referencing old table as old_rows new table as new_rows for each statement execute function ticket_counts_apply()')
  } else {
    const key = 'category_id = old.category_id and status = old.status and assigned_agent_id = coalesce(old.assigned_agent_id, 0) and private = old.private'
    const add = `insert into ticket_counts (${columns}, total) values (${values('new.')}, 1) on conflict (${columns}) do update set total = total + 1;`
    const subtract = `update ticket_counts set total = total - 1 where ${key};`
    const changed = 'old.category_id is not new.category_id or old.status is not new.status or old.assigned_agent_id is not new.assigned_agent_id or old.private is not new.private'
    await knex.raw(`create trigger ticket_counts_insert after insert on tickets begin ${add} end`)
    await knex.raw(`create trigger ticket_counts_delete after delete on tickets begin ${subtract} end`)
    await knex.raw(`create trigger ticket_counts_update after update of ${columns} on tickets when ${changed} begin ${subtract} ${add} end`)
  }
  await fill(knex)
}

export async function dropTicketCountTriggers (knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    for (const op of ['insert', 'delete', 'update']) await knex.raw(`drop trigger if exists ticket_counts_${op} on tickets`)
    await knex.raw('drop function if exists ticket_counts_apply()')
    return
  }
  for (const op of ['insert', 'delete', 'update']) await knex.raw(`drop trigger if exists ticket_counts_${op}`)
}
