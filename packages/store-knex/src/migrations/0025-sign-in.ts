import type { Knex } from 'knex'

/**
 * Sign-in (issue 34), part one: administrator settings shared by every
 * instance (`settings`: key -> JSON), single-use account tokens (password
 * reset, magic sign-in links, email verification, the pending second factor
 * of a sign-in: only their SHA-256 digests are stored), and two-factor
 * authentication (a TOTP secret per person, the last time step used, recent
 * failures, and hashed recovery codes). Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('settings', (t) => {
    t.string('key', 100).primary()
    t.text('value').notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
  })
  await knex.schema.createTable('account_tokens', (t) => {
    t.increments('id')
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.string('purpose', 20).notNullable()
    t.string('token_hash', 64).notNullable().unique()
    t.integer('attempts').notNullable().defaultTo(0)
    t.datetime('expires_at', { useTz: false }).notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.index(['user_id', 'purpose'])
    t.index(['expires_at'])
  })
  await knex.schema.createTable('two_factor', (t) => {
    t.integer('user_id').unsigned().primary().references('id').inTable('users').onDelete('CASCADE')
    t.text('secret').notNullable()
    t.datetime('confirmed_at', { useTz: false }).nullable()
    t.bigInteger('last_step').nullable()
    t.integer('failures').notNullable().defaultTo(0)
    t.datetime('failures_since', { useTz: false }).nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
  })
  await knex.schema.createTable('two_factor_recovery_codes', (t) => {
    t.increments('id')
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.string('code_hash', 64).notNullable()
    t.unique(['user_id', 'code_hash'])
  })
}

export async function down (knex: Knex): Promise<void> {
  for (const table of ['two_factor_recovery_codes', 'two_factor', 'account_tokens', 'settings']) await knex.schema.dropTable(table)
}
