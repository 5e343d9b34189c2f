import type { Knex } from 'knex'
import { createOwnerSubstringIndexes, createTicketSearchIndex, dropOwnerSubstringIndexes, dropTicketSearchIndex } from './frozen/search-0002.js'

/** Tickets, comments, attachments, reads, and the tickets' full-text search index. */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('tickets', (t) => {
    t.increments('id')
    // Deleting a customer deletes their tickets (and, by cascade, everything below).
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.integer('creator_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.integer('category_id').notNullable().references('id').inTable('categories').onDelete('RESTRICT')
    t.integer('assigned_agent_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.integer('status').notNullable().defaultTo(1)
    t.boolean('private').notNullable().defaultTo(true)
    t.string('title', 250).notNullable()
    t.text('body').notNullable()
    // JSON object: `fields` (custom-field answers by field id) and `purchase_code`.
    t.text('additional').notNullable().defaultTo('{}')
    t.datetime('agent_assigned_at', { useTz: false }).nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['status', 'created_at'], 'tickets_status_created_at_index')
    t.index(['category_id', 'created_at'], 'tickets_category_id_created_at_index')
    t.index(['user_id', 'created_at'], 'tickets_user_id_created_at_index')
    t.index(['assigned_agent_id', 'status'], 'tickets_assigned_agent_id_status_index')
    t.index(['creator_id'], 'tickets_creator_id_index')
    t.index(['private', 'created_at'], 'tickets_private_created_at_index')
    t.index(['created_at'], 'tickets_created_at_index')
    t.index(['updated_at'], 'tickets_updated_at_index')
  })

  await knex.schema.createTable('comments', (t) => {
    t.increments('id')
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('user_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.text('body').notNullable()
    t.string('preview', 255).notNullable().defaultTo('')
    t.integer('type').notNullable().defaultTo(1)
    t.boolean('private').notNullable().defaultTo(false)
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['ticket_id', 'created_at'], 'comments_ticket_id_created_at_index')
    t.index(['ticket_id', 'type'], 'comments_ticket_id_type_index')
    t.index(['user_id'], 'comments_user_id_index')
  })

  await knex.schema.createTable('attachments', (t) => {
    t.uuid('id').primary()
    t.integer('user_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.integer('ticket_id').nullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('comment_id').nullable().references('id').inTable('comments').onDelete('CASCADE')
    t.string('name', 250).notNullable()
    t.string('file_name', 200).notNullable()
    t.string('mime_type', 150).notNullable()
    t.integer('size').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    // (ticket_id, created_at) also finds unlinked attachments by age for pruning.
    t.index(['ticket_id', 'created_at'], 'attachments_ticket_id_created_at_index')
    t.index(['comment_id'], 'attachments_comment_id_index')
    t.index(['user_id'], 'attachments_user_id_index')
  })

  await knex.schema.createTable('ticket_reads', (t) => {
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.datetime('read_at', { useTz: false }).notNullable()
    t.primary(['ticket_id', 'user_id'])
    t.index(['user_id'], 'ticket_reads_user_id_index')
  })

  await createTicketSearchIndex(knex)
  await createOwnerSubstringIndexes(knex)
}

export async function down (knex: Knex): Promise<void> {
  await dropOwnerSubstringIndexes(knex)
  await dropTicketSearchIndex(knex)
  await knex.schema.dropTable('ticket_reads')
  await knex.schema.dropTable('attachments')
  await knex.schema.dropTable('comments')
  await knex.schema.dropTable('tickets')
}
