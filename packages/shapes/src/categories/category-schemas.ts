import { Type, type Static } from '@sinclair/typebox'
import { LIMITS, type Category as CategoryEntity } from '@helpdesk/core'
import { DateTime, Nullable } from '../common.js'
import { CustomField } from '../fields/field-schemas.js'

export const Category = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  order: Type.Integer(),
  thumbnail: Nullable(Type.String()),
  marketplace_item_id: Nullable(Type.Integer()),
  purchase_verification: Type.Integer({ description: '0 Not required, 1 Valid purchase code, 2 Valid code and active support.' }),
  created_at: DateTime,
  updated_at: DateTime,
  agents_count: Type.Optional(Type.Integer()),
  tickets_count: Type.Optional(Type.Integer()),
  articles_count: Type.Optional(Type.Integer()),
  collections_count: Type.Optional(Type.Integer()),
  fields: Type.Optional(Type.Array(CustomField, { description: 'Include `fields`: the ticket form (custom fields assigned to the category).' }))
})

const writable = {
  name: Type.String({ minLength: 1, maxLength: LIMITS.name }),
  thumbnail: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  marketplace_item_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2147483647 }))),
  purchase_verification: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]))
}

export const CategoryCreate = Type.Object({
  ...writable,
  agents: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), {
    maxItems: 1000,
    description: 'Agents given the new category (agents covering all categories have it anyway).'
  }))
}, { examples: [{ name: 'Billing', agents: [2, 5] }, { name: 'Premium plugin', marketplace_item_id: 4711, purchase_verification: 1 }] })
export const CategoryUpdate = Type.Partial(Type.Object(writable), { description: 'Absent keys keep their value.', examples: [{ name: 'Invoices and billing' }] })

/** A plain list of ids (positions 1, 2, 3...) or a map position -> id. */
export const OrderBody = Type.Object({
  order: Type.Union([
    Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { minItems: 1, maxItems: 10000 }),
    Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Integer({ minimum: 1, maximum: 2147483647 }))
  ], { description: 'Ids in their new order (positions 1, 2, 3...), or a map of position to id.' })
}, { examples: [{ order: [3, 1, 2] }, { order: { 1: 3, 2: 1, 3: 2 } }] })

export function presentCategory (category: CategoryEntity): Static<typeof Category> {
  return category as Static<typeof Category>
}
