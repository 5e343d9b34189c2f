import type { Knex } from 'knex'

/**
 * Single sign-on with OpenID Connect (issue 34), part two: the providers an
 * administrator configures (the client secret stored sealed when the instance
 * has a secret key), the identities people sign in with (keyed on the
 * provider and its `sub`, never on an email), the sign-ins under way (state,
 * nonce and PKCE verifier, single use), and which sessions came from which
 * identity (with the refresh token of that sign-in, sealed) and when the provider was last asked whether it still knows the
 * person (deprovisioning). Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('sso_providers', (t) => {
    t.increments('id')
    t.string('slug', 50).notNullable().unique()
    t.string('name', 100).notNullable()
    t.string('issuer', 500).notNullable()
    t.string('client_id', 255).notNullable()
    t.text('client_secret').nullable()
    t.string('scopes', 500).notNullable()
    t.boolean('enabled').notNullable()
    t.boolean('staff').notNullable()
    t.boolean('customers').notNullable()
    t.boolean('create_users').notNullable()
    t.boolean('link_by_email').notNullable()
    t.text('mapping').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
  })
  await knex.schema.createTable('sso_identities', (t) => {
    t.increments('id')
    t.integer('provider_id').unsigned().notNullable().references('id').inTable('sso_providers').onDelete('CASCADE')
    t.string('sub', 255).notNullable()
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.string('email', 255).nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('last_sign_in_at', { useTz: false }).notNullable()
    t.unique(['provider_id', 'sub'])
    t.index(['user_id'])
  })
  await knex.schema.createTable('sso_flows', (t) => {
    t.string('state_hash', 64).primary()
    t.integer('provider_id').unsigned().notNullable().references('id').inTable('sso_providers').onDelete('CASCADE')
    t.string('nonce', 100).notNullable()
    t.string('code_verifier', 100).notNullable()
    t.string('return_to', 500).nullable()
    t.datetime('expires_at', { useTz: false }).notNullable()
  })
  await knex.schema.createTable('sso_sessions', (t) => {
    t.integer('token_id').unsigned().primary().references('id').inTable('api_tokens').onDelete('CASCADE')
    t.integer('identity_id').unsigned().notNullable().references('id').inTable('sso_identities').onDelete('CASCADE')
    t.text('refresh_token').nullable()
    t.datetime('checked_at', { useTz: false }).notNullable()
    t.index(['identity_id'])
  })
}

export async function down (knex: Knex): Promise<void> {
  for (const table of ['sso_sessions', 'sso_flows', 'sso_identities', 'sso_providers']) await knex.schema.dropTable(table)
}
