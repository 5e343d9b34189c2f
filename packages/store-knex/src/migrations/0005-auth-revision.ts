import type { Knex } from 'knex'

/** The auth revision (one row): cached token lookups are trusted only while it stands still. */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('auth_revision', (t) => {
    t.integer('id').primary()
    t.bigInteger('revision').notNullable().defaultTo(0)
  })
  await knex('auth_revision').insert({ id: 1, revision: 0 })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('auth_revision')
}
