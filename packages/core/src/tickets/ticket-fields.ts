import type { Category } from '../categories/category.js'
import type { ServiceContext } from '../context.js'
import { UnavailableError, ValidationError, type FieldErrors } from '../errors.js'
import { FIELD_LIMITS, type CustomField } from '../fields/custom-field.js'
import { throwIfInvalid } from '../id-lists.js'
import { purchaseStanding } from '../knowledge-base/marketplace-access.js'
import type { Store } from '../store.js'
import { textLength } from '../text-input.js'

/** The answer as text, or null when it is not a scalar. Absent and null answers are blank. */
function answerText (value: unknown): string | null {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return null
}

/** Why `text` is not an acceptable answer to `field`, or null. */
export function answerProblem (field: CustomField, text: string): string | null {
  if (text === '') return field.required ? `The ${field.title} field is required.` : null
  if (field.type === 'select-box' && !field.meta.includes(text)) return `The selected ${field.title} is invalid.`
  const max = field.type === 'text-area' ? FIELD_LIMITS.textAreaAnswer : FIELD_LIMITS.textAnswer
  if (field.type !== 'select-box' && textLength(text) > max) return `The ${field.title} may not be greater than ${max} characters.`
  return null
}

/**
 * Checks custom-field answers sent on ticket creation (`fields` {field_id: value})
 * against the fields assigned to the ticket's category, and returns what is stored
 * in `additional.fields` (keyed by field id as a string).
 *
 * Every required field of the category must be answered; a select-box answer must
 * be one of its options; text answers are at most 250 characters (text-area 10,000);
 * ids of fields the category does not have are refused. Blank optional answers are
 * dropped. All problems are reported at once as 422 on `fields.<id>`.
 */
export async function checkFieldAnswers (
  store: Store, categoryId: number, answers: Record<string, unknown> | undefined
): Promise<Record<string, string>> {
  const fields = await store.customFields.forCategory(categoryId)
  const given = answers ?? {}
  const errors: FieldErrors = {}
  const out: Record<string, string> = {}
  for (const id of Object.keys(given)) {
    if (!fields.some((f) => String(f.id) === id)) errors[`fields.${id}`] = ['The field does not belong to the selected category.']
  }
  for (const field of fields) {
    const key = String(field.id)
    const text = answerText(given[key])
    const problem = text === null ? 'The answer must be text.' : answerProblem(field, text)
    if (problem !== null) errors[`fields.${key}`] = [problem]
    else if (text !== null && text !== '') out[key] = text
  }
  throwIfInvalid(errors)
  return out
}

/**
 * The marketplace rule of ticket creation (CONTRACT §15): with a marketplace
 * adapter, a category whose `purchase_verification` is 1 needs a valid
 * `purchase_code`, and 2 a valid code still in support (422 on `purchase_code`).
 * Without an adapter, or for categories with 0, nothing is required.
 * 503 when the marketplace cannot be reached.
 */
export async function checkPurchaseCode (
  ctx: ServiceContext, category: Pick<Category, 'purchase_verification'>, code: string | null | undefined
): Promise<void> {
  const marketplace = ctx.marketplace
  if (marketplace === undefined || category.purchase_verification === 0) return
  const given = code?.trim() ?? ''
  if (given === '') throw ValidationError.field('purchase_code', 'A purchase code is required for this category.')
  let standing
  try {
    standing = await purchaseStanding(marketplace, given, ctx.clock.now())
  } catch {
    throw new UnavailableError('The marketplace cannot be reached to verify the purchase code. Please try again shortly.')
  }
  if (standing === 'invalid') throw ValidationError.field('purchase_code', 'The purchase code is invalid.')
  if (category.purchase_verification === 2 && standing !== 'supported') {
    throw ValidationError.field('purchase_code', 'The support period of this purchase has expired.')
  }
}
