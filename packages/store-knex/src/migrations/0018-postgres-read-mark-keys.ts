import type { Knex } from 'knex'

/**
 * PostgreSQL: ticket reads without foreign keys. Every view records a read,
 * and at a million tickets most of them insert a row. Each insert ran two
 * foreign-key checks, a query per row and key that locks the referenced row;
 * a row lock writes the row's page, so nearly every view also wrote a whole
 * page of `tickets` to the WAL (its first change since the last checkpoint):
 * about 7 KB of WAL per read, against under 0.2 KB without the lock.
 *
 * The cascades are now statement-level triggers on `tickets` and `users`
 * (also fired by the deletes other cascades make, as when a user's tickets
 * go with the user). Each first locks `ticket_reads` against writers (share
 * row exclusive: it waits for the reads being written to commit, so its
 * delete removes them, and reads started meanwhile wait for the deleting
 * transaction and then find the ticket or user gone, as PostgreSQL takes a
 * statement's snapshot after its locks). The store's one statement that
 * writes reads still joins the ticket and the user, so it never reads a
 * deleted row into the table. Deletes of tickets and users are rare; views
 * are not.
 *
 * Frozen: the trigger functions are written out. SQLite: nothing to do (one
 * writer at a time, and its checks are index lookups that write nothing).
 */
export async function up (knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return
  for (const [table, column] of [['tickets', 'ticket_id'], ['users', 'user_id']] as const) {
    await knex.raw(`create function helpdesk_forget_reads_of_${table}() returns trigger language plpgsql as $$
begin
  lock table ticket_reads in share row exclusive mode;
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
