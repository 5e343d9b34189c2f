import type { Knex } from 'knex'

/** People, API tokens, categories, agent-category assignment, customer notes. */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id')
    t.integer('role').notNullable()
    t.string('first_name', 250).notNullable()
    t.string('last_name', 250).notNullable()
    t.string('email', 255).notNullable()
    t.string('company', 250).nullable()
    t.integer('status').notNullable().defaultTo(1)
    t.string('password_hash', 255).nullable()
    t.string('marketplace_username', 250).nullable()
    t.string('timezone', 64).nullable()
    t.text('permissions').notNullable().defaultTo('{}')
    t.boolean('notify_new_ticket').notNullable().defaultTo(true)
    t.boolean('notify_new_comment').notNullable().defaultTo(true)
    t.boolean('notify_ticket_reassigned').notNullable().defaultTo(true)
    t.datetime('last_login_at', { useTz: false }).nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['role', 'id'], 'users_role_id_index')
  })
  // Emails are unique case-insensitively (CONTRACT §16); the same expression index serves lookups.
  await knex.raw('create unique index users_email_unique on users (lower(email))')

  await knex.schema.createTable('api_tokens', (t) => {
    t.increments('id')
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.string('name', 100).nullable()
    t.string('token_hash', 64).notNullable().unique({ indexName: 'api_tokens_token_hash_unique' })
    t.datetime('last_used_at', { useTz: false }).nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['user_id'], 'api_tokens_user_id_index')
  })

  await knex.schema.createTable('categories', (t) => {
    t.increments('id')
    t.string('name', 250).notNullable()
    t.integer('order').notNullable().defaultTo(0)
    t.string('thumbnail', 2048).nullable()
    t.integer('marketplace_item_id').nullable()
    t.integer('purchase_verification').notNullable().defaultTo(0)
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
  })

  await knex.schema.createTable('agent_categories', (t) => {
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.integer('category_id').notNullable().references('id').inTable('categories').onDelete('CASCADE')
    t.primary(['user_id', 'category_id'])
    t.index(['category_id', 'user_id'], 'agent_categories_category_id_index')
  })

  await knex.schema.createTable('customer_notes', (t) => {
    t.increments('id')
    t.integer('customer_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.integer('creator_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.text('text').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['customer_id', 'created_at'], 'customer_notes_customer_id_index')
    t.index(['creator_id'], 'customer_notes_creator_id_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('customer_notes')
  await knex.schema.dropTable('agent_categories')
  await knex.schema.dropTable('categories')
  await knex.schema.dropTable('api_tokens')
  await knex.schema.dropTable('users')
}
