import { ValidationError, type FieldErrors } from './errors.js'

/**
 * 422 errors for the members of an id list that do not exist, keyed `field.N`
 * by position (CONTRACT §16: `categories.0`). Empty when all exist.
 */
export function unknownIdErrors (field: string, ids: readonly number[], existing: Iterable<number>, message: string): FieldErrors {
  const known = new Set(existing)
  const errors: FieldErrors = {}
  ids.forEach((id, index) => {
    if (!known.has(id)) errors[`${field}.${index}`] = [message]
  })
  return errors
}

/** Throws a ValidationError carrying `errors` unless it is empty. */
export function throwIfInvalid (errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}

/** The list without repeats, first occurrence kept. */
export function distinct<T> (values: readonly T[]): T[] {
  return [...new Set(values)]
}

/**
 * Like unknownIdErrors for an order body (CONTRACT §16): a plain list is keyed
 * `order.N` by index, a position map `order.P` by its position key.
 */
export function unknownOrderErrors (order: number[] | Record<string, number>, existing: Iterable<number>, message: string): FieldErrors {
  const known = new Set(existing)
  const entries: Array<[string, number]> = Array.isArray(order) ? order.map((id, i) => [String(i), id]) : Object.entries(order)
  const errors: FieldErrors = {}
  for (const [key, id] of entries) {
    if (!known.has(id)) errors[`order.${key}`] = [message]
  }
  return errors
}
