import type { FieldErrors } from './errors.js'
import { plainTextInput, sanitizeBody } from './html.js'

/** A field's name as a person reads it (`first_name` -> `first name`). */
export function fieldLabel (field: string): string {
  return field.replace(/_/g, ' ')
}

/** Length in characters (code points), the way a person counts them. */
export function textLength (value: string): number {
  return [...value].length
}

/** The trimmed value; records "required" when blank and "too long" past `max` characters. */
export function requiredText (errors: FieldErrors, field: string, value: string, max: number): string {
  const text = value.trim()
  if (text === '') errors[field] = [`The ${fieldLabel(field)} field is required.`]
  else if (textLength(text) > max) errors[field] = [`The ${fieldLabel(field)} may not be greater than ${max} characters.`]
  return text
}

/** The trimmed value, null when blank; records "too long" past `max` characters. */
export function optionalText (errors: FieldErrors, field: string, value: string | null | undefined, max: number): string | null {
  const text = value?.trim() ?? ''
  if (textLength(text) > max) errors[field] = [`The ${fieldLabel(field)} may not be greater than ${max} characters.`]
  return text === '' ? null : text
}

/**
 * A plain-text field (a title, a name): text, never stripped — whitespace collapsed and `<`, `>`
 * escaped (html.ts `plainTextInput`, CONTRACT §17); required, at most `max` characters as stored.
 */
export function requiredPlainText (errors: FieldErrors, field: string, value: string, max: number): string {
  const text = plainTextInput(value)
  if (text === '') errors[field] = [`The ${fieldLabel(field)} field is required.`]
  else if (textLength(text) > max) errors[field] = [`The ${fieldLabel(field)} may not be greater than ${max} characters.`]
  return text
}

/** An optional plain-text field, as `requiredPlainText`; null when blank. */
export function optionalPlainText (errors: FieldErrors, field: string, value: string | null | undefined, max: number): string | null {
  const text = plainTextInput(value ?? '')
  if (textLength(text) > max) errors[field] = [`The ${fieldLabel(field)} may not be greater than ${max} characters.`]
  return text === '' ? null : text
}

/**
 * An HTML body: sanitised (html.ts), and still required once cleaned, so a
 * lone `<script>` is no body. Records errors on `field`.
 */
export function requiredHtml (errors: FieldErrors, field: string, value: string, max: number): string {
  const raw = requiredText(errors, field, value, max)
  if (errors[field] !== undefined) return raw
  const clean = sanitizeBody(raw).trim()
  if (clean === '') errors[field] = [`The ${fieldLabel(field)} field is required.`]
  return clean
}
