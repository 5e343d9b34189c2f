import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'

/** The kinds of ticket-form field. */
export const CUSTOM_FIELD_TYPES = ['select-box', 'text', 'text-area'] as const
export type CustomFieldType = typeof CUSTOM_FIELD_TYPES[number]

/** Limits of the spec's custom-field section, and of the answers a ticket may carry. */
export const FIELD_LIMITS = {
  title: 100,
  placeholder: 100,
  description: 250,
  option: 250,
  options: 100,
  /** Longest answer to a `text` field. */
  textAnswer: 250,
  /** Longest answer to a `text-area` field. */
  textAreaAnswer: 10000
} as const

/**
 * An extra ticket-form field. `meta` holds the field's meta-data as an array:
 * for a `select-box` its options (strings, in display order), empty otherwise.
 */
export interface CustomField {
  id: number
  type: CustomFieldType
  title: string
  placeholder: string | null
  description: string | null
  required: boolean
  meta: string[]
  created_at: DateTimeString
  updated_at: DateTimeString
}

/** Input of `POST /fields`. `options` is required for a select-box; `categories` assigns the field. */
export interface CustomFieldInput {
  type: CustomFieldType
  title: string
  options?: string[] | undefined
  required?: boolean | undefined
  description?: string | null | undefined
  placeholder?: string | null | undefined
  categories?: number[] | undefined
}

/** Input of `PATCH /fields/{id}`: absent keys keep their value. */
export type CustomFieldPatch = Partial<CustomFieldInput>

export function isCustomFieldType (value: string): value is CustomFieldType {
  return (CUSTOM_FIELD_TYPES as readonly string[]).includes(value)
}

export const customFieldList = defineList({
  resource: 'fields',
  includes: ['categories-count'],
  sorts: ['id', 'title', 'type'],
  defaultSort: 'id',
  keyTypes: { id: 'int', title: 'string', type: 'string' },
  partialFilters: ['title'],
  exactFilters: ['type']
})
