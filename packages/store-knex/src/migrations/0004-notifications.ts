import type { Knex } from 'knex'

/** Notifications (the events' outbox rows), import jobs and the external ids imports remember. */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('notifications', (t) => {
    t.uuid('id').primary()
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.string('type', 100).notNullable()
    t.text('data').notNullable()
    t.integer('author_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    // No foreign key: the tickets module deletes a ticket's notifications through its TicketDeleted event.
    t.integer('ticket_id').nullable()
    t.datetime('read_at', { useTz: false }).nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['user_id', 'created_at'], 'notifications_user_id_created_at_index')
    t.index(['user_id', 'read_at'], 'notifications_user_id_read_at_index')
    t.index(['ticket_id'], 'notifications_ticket_id_index')
    t.index(['author_id'], 'notifications_author_id_index')
  })

  await knex.schema.createTable('imports', (t) => {
    t.increments('id')
    t.integer('user_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.string('status', 16).notNullable()
    t.string('format', 8).nullable()
    t.string('file_name', 255).nullable()
    // The uploaded file while the job waits or runs, so any instance can run it; cleared when it ends.
    t.text('source').nullable()
    t.integer('total').notNullable().defaultTo(0)
    t.integer('processed').notNullable().defaultTo(0)
    t.integer('created').notNullable().defaultTo(0)
    t.integer('failed').notNullable().defaultTo(0)
    t.text('message').nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    // Also the running job's heartbeat: every committed batch moves it.
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['status', 'updated_at'], 'imports_status_updated_at_index')
  })

  await knex.schema.createTable('import_external_ids', (t) => {
    t.string('source_type', 32).notNullable()
    t.string('external_id', 191).notNullable()
    t.integer('local_id').notNullable()
    t.integer('import_id').nullable().references('id').inTable('imports').onDelete('SET NULL')
    t.datetime('created_at', { useTz: false }).notNullable()
    t.primary(['source_type', 'external_id'])
    t.index(['source_type', 'local_id'], 'import_external_ids_local_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('import_external_ids')
  await knex.schema.dropTable('imports')
  await knex.schema.dropTable('notifications')
}
