import { t } from '../messages/index.js'

/** A field's API name as its sentences word it (`first_name` -> `first name`, `fields.3` -> its own title). */
function apiWords (field: string): string {
  return field.replace(/_/g, ' ')
}

/**
 * A 422 sentence of the API, for the field `field`, in the form's own words:
 * `The title field is required.` under *Subject* reads `Subject is required.`.
 * Sentences the console has no wording for keep the API's, with its name of
 * the field replaced by the label.
 */
export function labelledMessage (message: string, field: string, label: string): string {
  if (/\bfield is required\.?$/.test(message) || /\bmay not be blank\.?$/.test(message)) return t('validation.required', { label })
  const tooLong = /may not be greater than (\d+) characters/.exec(message)
  if (tooLong !== null) return t('validation.tooLong', { label, max: tooLong[1] ?? '' })
  if (/must be a valid email/.test(message)) return t('validation.email', { label })
  if (/^The selected .+ is invalid\.?$/.test(message)) return t('validation.invalid', { label })
  const words = apiWords(field.split('.').pop() ?? field)
  const prefix = `The ${words} `
  if (message.toLowerCase().startsWith(prefix.toLowerCase())) return `${label} ${message.slice(prefix.length).replace(/^field /, '')}`
  return message
}

/** What a changed value still fails of the rules the console knows without asking (required). */
export function localProblem (value: string, label: string, required: boolean | undefined): string | undefined {
  return required === true && value.trim() === '' ? t('validation.required', { label }) : undefined
}
