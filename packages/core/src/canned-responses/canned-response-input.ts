import type { FieldErrors } from '../errors.js'
import { throwIfInvalid } from '../id-lists.js'
import { requiredHtml, requiredPlainText } from '../text-input.js'
import { CANNED_RESPONSE_LIMITS, type CannedResponse, type CannedResponsePatch } from './canned-response.js'

export type CannedResponseValues = Pick<CannedResponse, 'name' | 'body' | 'global'>

/** The stored values after applying `patch` over `current` (all of them for a new response). */
export function cannedResponseValues (current: CannedResponseValues, patch: CannedResponsePatch): CannedResponseValues {
  const errors: FieldErrors = {}
  const values: CannedResponseValues = {
    name: patch.name === undefined ? current.name : requiredPlainText(errors, 'name', patch.name, CANNED_RESPONSE_LIMITS.name),
    body: patch.body === undefined ? current.body : requiredHtml(errors, 'body', patch.body, CANNED_RESPONSE_LIMITS.body),
    global: patch.global ?? current.global
  }
  throwIfInvalid(errors)
  return values
}
