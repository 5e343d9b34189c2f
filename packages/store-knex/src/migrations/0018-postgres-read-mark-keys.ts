import type { Knex } from 'knex'

/**
 * PostgreSQL: ticket reads without foreign keys. Every view records a read,
 * and at a million tickets most of them insert a row; each insert ran two
 * foreign-key checks (a query per row and key, each locking the referenced
 * row), which doubled what PostgreSQL spent on the read marks. The store's
 * one statement that writes reads now joins the ticket and the user and
 * locks both itself (`for key share`, the lock those checks took, taken in
 * the join it already does), so a ticket or user deleted meanwhile is still
 * never read into a row; the cascades are statement-level triggers on
 * `tickets` and `users` (also fired by the deletes other cascades make, as
 * when a user's tickets go with the user).
 *
 * Frozen: the trigger functions are written out. SQLite: nothing to do (its
 * checks are index lookups that take no locks).
 */
export async function up (knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return
  for (const [table, column] of [['tickets', 'ticket_id'], ['users', 'user_id']] as const) {
    await knex.raw(`create function helpdesk_forget_reads_of_${table}() returns trigger language plpgsql as $$
begin
  delete from ticket_reads where ${column} in (select id from gone);
  return null;
end
$$`)
    await knex.raw(`create trigger ${table}_forget_reads after delete on ${table} referencing old table as gone ` +
      `for each statement execute function helpdesk_forget_reads_of_${table}()`)
  }
  await knex.raw('alter table ticket_reads drop constraint ticket_reads_ticket_id_foreign, drop constraint ticket_reads_user_id_foreign')
}

export async function down (knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return
  for (const table of ['tickets', 'users']) {
    await knex.raw(`drop trigger if exists ${table}_forget_reads on ${table}`)
    await knex.raw(`drop function if exists helpdesk_forget_reads_of_${table}()`)
  }
  await knex.raw('delete from ticket_reads where not exists (select 1 from tickets where tickets.id = ticket_reads.ticket_id) ' +
    'or not exists (select 1 from users where users.id = ticket_reads.user_id)')
  await knex.raw('alter table ticket_reads ' +
    'add constraint ticket_reads_ticket_id_foreign foreign key (ticket_id) references tickets (id) on delete cascade, ' +
    'add constraint ticket_reads_user_id_foreign foreign key (user_id) references users (id) on delete cascade')
}
