import type { Knex } from 'knex'

/**
 * Sessions that end on the server (issue 29). A token row says whether a
 * password login issued it (`session`: the console's cookie, `POST
 * /auth/login`, registration) and, for sessions, the client that logged in
 * (`user_agent`, `ip`), so a person can tell their sessions apart.
 * `last_used_at` (0001, never written until now) records uses.
 *
 * The rows that were login or console tokens (named `login` or `session`)
 * become sessions, their idle window starting now: the upgrade ends only
 * those past their absolute lifetime. Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  const pg = knex.client.config.client === 'pg'
  await knex.raw(`alter table api_tokens add column session boolean not null default ${pg ? 'false' : '0'}`)
  await knex.raw('alter table api_tokens add column user_agent varchar(255)')
  await knex.raw('alter table api_tokens add column ip varchar(45)')
  await knex.raw(`update api_tokens set session = ${pg ? 'true' : '1'}, last_used_at = ${pg ? "(now() at time zone 'utc')" : 'current_timestamp'} ` +
    "where name in ('login', 'session')")
}

export async function down (knex: Knex): Promise<void> {
  for (const column of ['ip', 'user_agent', 'session']) await knex.raw(`alter table api_tokens drop column ${column}`)
}
