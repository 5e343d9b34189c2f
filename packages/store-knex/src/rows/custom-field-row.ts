import type { CustomField, NewCustomField } from '@helpdesk/core'
import { bool, parseJson } from './row-values.js'

export interface CustomFieldRow {
  id: number
  type: string
  title: string
  placeholder: string | null
  description: string | null
  required: number | boolean
  meta: string
  created_at: string
  updated_at: string
}

export const customFieldColumns = [
  'id', 'type', 'title', 'placeholder', 'description', 'required', 'meta', 'created_at', 'updated_at'
].map((c) => `custom_fields.${c}`)

export function customFieldFromRow (row: CustomFieldRow): CustomField {
  const meta = parseJson<unknown>(row.meta, [])
  return {
    id: row.id,
    type: row.type as CustomField['type'],
    title: row.title,
    placeholder: row.placeholder,
    description: row.description,
    required: bool(row.required),
    meta: Array.isArray(meta) ? meta.map(String) : [],
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

export function rowFromCustomField (field: NewCustomField): Omit<CustomFieldRow, 'id' | 'created_at' | 'updated_at'> {
  return {
    type: field.type,
    title: field.title,
    placeholder: field.placeholder,
    description: field.description,
    required: field.required,
    meta: JSON.stringify(field.meta)
  }
}
