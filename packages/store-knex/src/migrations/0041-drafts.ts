import type { Knex } from 'knex'

/**
 * Drafts (issue 35): each person's unsent reply or note, one per person and
 * ticket, gone with either; and the uploads a draft holds (an upload in one
 * draft at most), which keep it from the pruning of unlinked uploads.
 * Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('drafts', (t) => {
    t.increments('id')
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.smallint('type').notNullable()
    t.text('body').notNullable()
    t.boolean('private').notNullable().defaultTo(false)
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.unique(['user_id', 'ticket_id'], { indexName: 'drafts_user_id_ticket_id_unique' })
    t.index(['user_id', 'updated_at'], 'drafts_user_id_updated_at_index')
    t.index(['ticket_id'], 'drafts_ticket_id_index')
  })
  await knex.schema.createTable('draft_attachments', (t) => {
    t.uuid('attachment_id').primary().references('id').inTable('attachments').onDelete('CASCADE')
    t.integer('draft_id').notNullable().references('id').inTable('drafts').onDelete('CASCADE')
    t.index(['draft_id'], 'draft_attachments_draft_id_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('draft_attachments')
  await knex.schema.dropTable('drafts')
}
