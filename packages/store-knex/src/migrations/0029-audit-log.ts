import type { Knex } from 'knex'

/**
 * The audit log (issue 31): one row per change to the help desk itself
 * (agents, categories, custom fields, canned responses, webhooks, tokens,
 * sign-ins, settings, two-factor), with the actor, the client's address,
 * the action, its subject and the subject before and after as JSON text
 * (secrets removed before they get here). Indexed for the list's filters
 * (newest first, by action, actor, subject) and for the retention job
 * (by time). Users may go; their entries stay (actor_id set null). Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_log', (t) => {
    t.increments('id').primary()
    t.string('actor_kind', 16).notNullable()
    t.integer('actor_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.string('actor_name', 255).nullable()
    t.string('ip', 64).nullable()
    t.string('action', 64).notNullable()
    t.string('subject_type', 32).notNullable()
    t.string('subject_id', 64).nullable()
    t.text('before').nullable()
    t.text('after').nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.index(['created_at', 'id'], 'audit_log_created_at_index')
    t.index(['action', 'id'], 'audit_log_action_index')
    t.index(['actor_id', 'id'], 'audit_log_actor_index')
    t.index(['subject_type', 'subject_id', 'id'], 'audit_log_subject_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_log')
}
