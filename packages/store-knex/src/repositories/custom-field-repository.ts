import type { Knex } from 'knex'
import { customFieldList, type CustomField, type CustomFieldRepository, type WithIncludes } from '@helpdesk/core'
import { countInclude, listPage, viewOne, type ListMapping } from '../list/list-mapping.js'
import { customFieldColumns, customFieldFromRow, rowFromCustomField, type CustomFieldRow } from '../rows/custom-field-row.js'
import type { RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

type Item = WithIncludes<CustomField>

const mapping: ListMapping<typeof customFieldList, CustomFieldRow, Item> = {
  spec: customFieldList,
  sorts: { id: 'custom_fields.id', title: 'custom_fields.title', type: 'custom_fields.type' },
  partial: { title: 'custom_fields.title' },
  exact: { type: { column: 'custom_fields.type', type: 'string' } },
  includes: {
    'categories-count': countInclude('category_fields', 'field_id')
  },
  idColumn: 'custom_fields.id',
  map: (row) => customFieldFromRow(row) as Item
}

export function createCustomFieldRepository (ctx: RepositoryContext): CustomFieldRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'custom_fields')
  const fields = (): Knex.QueryBuilder => db('custom_fields').select(customFieldColumns)
  return {
    async findById (id) {
      const row = await fields().where('custom_fields.id', id).first() as CustomFieldRow | undefined
      return row === undefined ? null : customFieldFromRow(row)
    },
    async list (query) {
      return await listPage(db, ctx.dialect, fields(), mapping, query)
    },
    async view (id, query) {
      return await viewOne(db, fields().where('custom_fields.id', id), mapping, query)
    },
    async create (field) {
      return (await this.findById((await table.insert(rowFromCustomField(field))).id))!
    },
    async update (id, field) {
      return await table.update(id, rowFromCustomField(field)) ? await this.findById(id) : null
    },
    async delete (id) {
      return await table.delete(id)
    },
    async setCategories (fieldId, categoryIds) {
      await db('category_fields').where('field_id', fieldId).delete()
      if (categoryIds.length > 0) {
        await db('category_fields').insert(categoryIds.map((categoryId) => ({ category_id: categoryId, field_id: fieldId })))
      }
    },
    async forCategory (categoryId) {
      const rows = await fields()
        .join('category_fields', 'category_fields.field_id', 'custom_fields.id')
        .where('category_fields.category_id', categoryId)
        .orderBy('custom_fields.id') as CustomFieldRow[]
      return rows.map((row) => customFieldFromRow(row))
    }
  }
}
