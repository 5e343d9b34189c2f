import { Type, type Static } from '@sinclair/typebox'
import { FIELD_LIMITS, type CustomField as CustomFieldEntity } from '@helpdesk/core'
import { DateTime, Nullable } from '../common.js'

const FieldType = Type.Union([Type.Literal('select-box'), Type.Literal('text'), Type.Literal('text-area')], {
  description: '`select-box`, `text` or `text-area`.'
})

export const CustomField = Type.Object({
  id: Type.Integer(),
  type: FieldType,
  title: Type.String({ description: 'The label.' }),
  placeholder: Nullable(Type.String()),
  description: Nullable(Type.String()),
  required: Type.Boolean({ description: 'Tickets in the field\'s categories must answer it.' }),
  meta: Type.Array(Type.String(), {
    description: 'Meta-data about the field, as an array: for a `select-box` its options (strings, in display order); empty for `text` and `text-area`.'
  }),
  created_at: DateTime,
  updated_at: DateTime,
  categories_count: Type.Optional(Type.Integer({ description: 'Include `categories-count`: categories the field is assigned to.' }))
}, { description: 'A custom ticket-form field.' })

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })

const writable = {
  title: Type.String({ minLength: 1, maxLength: FIELD_LIMITS.title }),
  type: FieldType,
  options: Type.Optional(Type.Array(Type.String({ maxLength: FIELD_LIMITS.option }), {
    maxItems: FIELD_LIMITS.options,
    description: 'The choices of a `select-box` (required for that type, ignored for others); returned in `meta`.'
  })),
  required: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  description: Type.Optional(Nullable(Type.String({ maxLength: FIELD_LIMITS.description }))),
  placeholder: Type.Optional(Nullable(Type.String({ maxLength: FIELD_LIMITS.placeholder }))),
  categories: Type.Optional(Type.Array(Id, {
    maxItems: 1000,
    description: 'Ids of the categories whose ticket form shows the field; replaces the current assignment.'
  }))
}

export const CustomFieldCreate = Type.Object(writable, {
  examples: [{ title: 'Operating system', type: 'select-box', options: ['Linux', 'macOS', 'Windows'], required: true, categories: [1] }]
})
export const CustomFieldUpdate = Type.Partial(Type.Object(writable), {
  description: 'Absent keys keep their value; a field becoming a `select-box` must send `options`.',
  examples: [{ placeholder: 'Which system do you use?' }]
})

export function presentCustomField (field: CustomFieldEntity): Static<typeof CustomField> {
  return field as Static<typeof CustomField>
}
