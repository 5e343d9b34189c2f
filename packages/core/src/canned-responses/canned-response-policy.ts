import { actsAsAdmin, personOf, type ActorInput } from '../users/actor.js'
import { ensure, ensureStaff } from '../users/user-policy.js'
import type { CannedResponse } from './canned-response.js'

/**
 * Which canned responses a caller sees (CONTRACT §10, §16): administrators all
 * of them; agents the global ones and their own. The store applies this same
 * scope to lists and single views.
 */
export type CannedResponseScope = { all: true } | { all: false, userId: number }

/** The caller's scope; 403 for customers (the system sees all, as administrators do). */
export function cannedResponseScope (actor: ActorInput): CannedResponseScope {
  ensureStaff(actor)
  if (actsAsAdmin(actor)) return { all: true }
  const person = personOf(actor)
  ensure(person !== null)
  return { all: false, userId: person!.id }
}

/** Only the creator or an administrator may change or delete one. */
export function canChangeCannedResponse (actor: ActorInput, response: Pick<CannedResponse, 'user_id'>): boolean {
  return actsAsAdmin(actor) || response.user_id === personOf(actor)?.id
}

export function ensureCanChangeCannedResponse (actor: ActorInput, response: Pick<CannedResponse, 'user_id'>): void {
  ensure(canChangeCannedResponse(actor, response), 'Only its creator or an administrator may change this canned response.')
}
