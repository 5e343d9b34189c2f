import type { Knex } from 'knex'

/**
 * Mail both ways: each ticket's thread (reply-address token, root
 * Message-ID), every mail sent or received (status, the original of received
 * mail), participants Cc'd in by mail, and customers who opted out.
 * Frozen: this migration's DDL never changes.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_threads', (t) => {
    t.integer('ticket_id').primary().references('id').inTable('tickets').onDelete('CASCADE')
    t.string('reply_token', 64).notNullable().unique('mail_threads_reply_token_unique')
    t.string('root_message_id', 255).notNullable().index('mail_threads_root_message_id_index')
    t.datetime('created_at', { useTz: false }).notNullable()
  })

  await knex.schema.createTable('mail_messages', (t) => {
    t.increments('id')
    t.string('direction', 3).notNullable()
    t.string('status', 16).notNullable()
    t.string('kind', 32).nullable()
    t.string('message_id', 255).nullable().index('mail_messages_message_id_index')
    // One received mail per Message-ID (or digest): null for sent mail.
    t.string('dedupe_key', 255).nullable().unique('mail_messages_dedupe_key_unique')
    t.integer('ticket_id').nullable().references('id').inTable('tickets').onDelete('SET NULL')
    t.integer('comment_id').nullable().references('id').inTable('comments').onDelete('SET NULL')
    t.integer('user_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.integer('author_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.string('sender', 255).nullable()
    t.string('recipient', 255).nullable()
    t.string('subject', 1000).nullable()
    t.text('error').nullable()
    t.integer('attempts').notNullable().defaultTo(0)
    t.string('unsubscribe_token', 64).nullable().unique('mail_messages_unsubscribe_token_unique')
    t.binary('raw').nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.datetime('sent_at', { useTz: false }).nullable()
    t.index(['direction', 'status', 'id'], 'mail_messages_direction_status_index')
    t.index(['ticket_id', 'id'], 'mail_messages_ticket_id_index')
    t.index(['sender', 'created_at'], 'mail_messages_sender_created_at_index')
  })

  await knex.schema.createTable('mail_participants', (t) => {
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.primary(['ticket_id', 'user_id'])
  })

  await knex.schema.createTable('mail_opt_outs', (t) => {
    t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE')
    t.datetime('created_at', { useTz: false }).notNullable()
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('mail_opt_outs')
  await knex.schema.dropTable('mail_participants')
  await knex.schema.dropTable('mail_messages')
  await knex.schema.dropTable('mail_threads')
}
