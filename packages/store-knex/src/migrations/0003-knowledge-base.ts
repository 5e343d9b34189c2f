import type { Knex } from 'knex'

/** Custom ticket-form fields, canned responses, and the knowledge base (collections, articles, tags). */
export async function up (knex: Knex): Promise<void> {
  await knex.schema.createTable('custom_fields', (t) => {
    t.increments('id')
    t.string('type', 20).notNullable()
    t.string('title', 100).notNullable()
    t.string('placeholder', 100).nullable()
    t.string('description', 250).nullable()
    t.boolean('required').notNullable().defaultTo(false)
    // JSON array: a select-box's options, empty for other types.
    t.text('meta').notNullable().defaultTo('[]')
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
  })

  await knex.schema.createTable('category_fields', (t) => {
    t.integer('category_id').notNullable().references('id').inTable('categories').onDelete('CASCADE')
    t.integer('field_id').notNullable().references('id').inTable('custom_fields').onDelete('CASCADE')
    t.primary(['category_id', 'field_id'])
    t.index(['field_id'], 'category_fields_field_id_index')
  })

  await knex.schema.createTable('canned_responses', (t) => {
    t.increments('id')
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE')
    t.boolean('global').notNullable().defaultTo(false)
    t.string('name', 250).notNullable()
    t.text('body').notNullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['user_id'], 'canned_responses_user_id_index')
    t.index(['created_at'], 'canned_responses_created_at_index')
  })

  await knex.schema.createTable('article_collections', (t) => {
    t.increments('id')
    t.integer('category_id').notNullable().references('id').inTable('categories').onDelete('RESTRICT')
    t.string('name', 250).notNullable()
    t.integer('order').notNullable().defaultTo(0)
    t.integer('visibility').notNullable().defaultTo(1)
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['category_id'], 'article_collections_category_id_index')
    t.index(['visibility'], 'article_collections_visibility_index')
  })

  await knex.schema.createTable('articles', (t) => {
    t.increments('id')
    t.string('title', 250).notNullable()
    t.string('slug', 255).notNullable().unique({ indexName: 'articles_slug_unique' })
    t.text('body').notNullable()
    t.integer('order').notNullable().defaultTo(0)
    t.integer('author_id').nullable().references('id').inTable('users').onDelete('SET NULL')
    t.integer('category_id').notNullable().references('id').inTable('categories').onDelete('RESTRICT')
    t.integer('collection_id').notNullable().references('id').inTable('article_collections').onDelete('CASCADE')
    t.datetime('published_at', { useTz: false }).nullable()
    t.datetime('created_at', { useTz: false }).notNullable()
    t.datetime('updated_at', { useTz: false }).notNullable()
    t.index(['collection_id', 'order'], 'articles_collection_id_order_index')
    t.index(['category_id'], 'articles_category_id_index')
    t.index(['author_id'], 'articles_author_id_index')
  })

  await knex.schema.createTable('tags', (t) => {
    t.increments('id')
    t.string('name', 100).notNullable().unique({ indexName: 'tags_name_unique' })
  })

  await knex.schema.createTable('article_tags', (t) => {
    t.integer('article_id').notNullable().references('id').inTable('articles').onDelete('CASCADE')
    t.integer('tag_id').notNullable().references('id').inTable('tags').onDelete('CASCADE')
    t.primary(['article_id', 'tag_id'])
    t.index(['tag_id'], 'article_tags_tag_id_index')
  })
}

export async function down (knex: Knex): Promise<void> {
  await knex.schema.dropTable('article_tags')
  await knex.schema.dropTable('tags')
  await knex.schema.dropTable('articles')
  await knex.schema.dropTable('article_collections')
  await knex.schema.dropTable('canned_responses')
  await knex.schema.dropTable('category_fields')
  await knex.schema.dropTable('custom_fields')
}
