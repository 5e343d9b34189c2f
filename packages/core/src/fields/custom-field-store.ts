import type { ListQuery, Page } from '../list/list-query.js'
import type { WithIncludes } from '../store.js'
import type { CustomField } from './custom-field.js'

/** The stored values of a custom field. */
export type NewCustomField = Pick<CustomField, 'type' | 'title' | 'placeholder' | 'description' | 'required' | 'meta'>

/** Storage port for custom fields (part of Store; see its conventions). */
export interface CustomFieldRepository {
  findById(id: number): Promise<CustomField | null>
  list(query: ListQuery): Promise<Page<WithIncludes<CustomField>>>
  view(id: number, query: ListQuery): Promise<WithIncludes<CustomField> | null>
  create(field: NewCustomField): Promise<CustomField>
  /** Replaces the stored values; null when the field is missing. */
  update(id: number, field: NewCustomField): Promise<CustomField | null>
  /** Deletes the field and its category assignments. */
  delete(id: number): Promise<boolean>
  /** Replaces the categories the field is assigned to (ids known to exist). */
  setCategories(fieldId: number, categoryIds: number[]): Promise<void>
  /** A category's ticket form: the fields assigned to it, by id. */
  forCategory(categoryId: number): Promise<CustomField[]>
}
