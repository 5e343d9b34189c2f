/**
 * Placeholder mapping for custom fields until the knowledge-base feature
 * defines the custom field entity; it returns the row as stored.
 */
export function customFieldFromRow (row: Record<string, unknown>): Record<string, unknown> {
  const { category_id: _categoryId, ...field } = row
  return field
}
