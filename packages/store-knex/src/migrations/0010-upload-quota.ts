import type { Knex } from 'knex'

/**
 * Security fixes of issue #11 (frozen DDL: the same statements on SQLite and PostgreSQL).
 * - A partial index of unlinked uploads per uploader: the upload quota sums them on every upload.
 * - Ticket titles and comment previews stored before plain text kept `<` and `>` escaped are
 *   escaped now, so no stored plain text contains markup (CONTRACT §17).
 */
export async function up (knex: Knex): Promise<void> {
  await knex.raw('create index attachments_unlinked_user_id_index on attachments (user_id) where ticket_id is null and comment_id is null')
  for (const [table, column] of [['tickets', 'title'], ['comments', 'preview']] as const) {
    await knex.raw(
      `update ${table} set ${column} = replace(replace(${column}, '<', '&lt;'), '>', '&gt;') where ${column} like '%<%' or ${column} like '%>%'`
    )
  }
}

export async function down (knex: Knex): Promise<void> {
  await knex.raw('drop index attachments_unlinked_user_id_index')
}
