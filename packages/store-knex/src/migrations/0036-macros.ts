import type { Knex } from 'knex'

/**
 * Macros (issue 32): named sets of ticket actions (JSON, validated by core's
 * `ruleActions`), shared (all staff) or personal (`user_id`'s alone). A
 * personal macro goes with its owner; a shared one outlives its creator.
 * Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('macros', (t) => {
    t.increments('id')
    t.string('name', 250).notNullable()
    t.boolean('shared').notNullable().defaultTo(false)
    t.integer('user_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.text('actions').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['shared', 'name'], 'macros_shared_name_index')
    t.index(['user_id'], 'macros_user_id_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('macros')
}
