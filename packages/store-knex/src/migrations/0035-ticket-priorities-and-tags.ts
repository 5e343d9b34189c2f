import type { Knex } from 'knex'

/**
 * Priorities and tags of tickets (issue 32). `priority` is the rank of
 * low (0), normal (1, every existing ticket), high (2), urgent (3), so a sort
 * by priority is by rank; `(priority, id)` serves that sort and the filter.
 * Tags reuse the knowledge base's `tags` table through `ticket_tags`; its
 * `(tag_id, ticket_id)` index answers `filter[tags]`. Frozen DDL.
 */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.alterTable('tickets', (t) => {
    t.smallint('priority').notNullable().defaultTo(1)
  })
  await knex.schema.alterTable('tickets', (t) => {
    t.index(['priority', 'id'], 'tickets_priority_id_index')
  })
  await knex.schema.createTable('ticket_tags', (t) => {
    t.integer('ticket_id').notNullable().references('id').inTable('tickets').onDelete('CASCADE')
    t.integer('tag_id').notNullable().references('id').inTable('tags').onDelete('CASCADE')
    t.primary(['ticket_id', 'tag_id'])
    t.index(['tag_id', 'ticket_id'], 'ticket_tags_tag_id_ticket_id_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('ticket_tags')
  await knex.schema.alterTable('tickets', (t) => {
    t.dropIndex(['priority', 'id'], 'tickets_priority_id_index')
  })
  await knex.schema.alterTable('tickets', (t) => {
    t.dropColumn('priority')
  })
}
