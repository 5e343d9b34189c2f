import { ValidationError } from '../errors.js'
import type { Store } from '../store.js'

/**
 * Checks custom-field answers sent on ticket creation (`fields` {field_id: value})
 * against the fields assigned to the ticket's category, and returns what is stored
 * in `additional.fields` (keyed by field id as a string).
 *
 * Until custom fields exist this only checks the shape.
 */
export async function checkFieldAnswers (
  _store: Store, _categoryId: number, answers: Record<string, unknown> | undefined
): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const [id, value] of Object.entries(answers ?? {})) {
    if (!/^\d+$/.test(id)) throw ValidationError.field(`fields.${id}`, 'The field id must be an integer.')
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw ValidationError.field(`fields.${id}`, 'The answer must be text.')
    }
    out[id] = String(value)
  }
  return out
}
