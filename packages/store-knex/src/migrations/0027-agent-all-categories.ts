import type { Knex } from 'knex'

/**
 * Agents covering all categories (issue 35): an administrator marks an agent
 * as covering every category, present and future, instead of listing them
 * one by one (a category created later is then theirs without a word).
 * Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('all_categories').notNullable().defaultTo(false)
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('all_categories')
  })
}
