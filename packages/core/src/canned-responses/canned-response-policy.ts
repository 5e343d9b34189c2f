import { ensure, ensureStaff } from '../users/user-policy.js'
import { isAdmin, type Actor } from '../users/user.js'
import type { CannedResponse } from './canned-response.js'

/**
 * Which canned responses a caller sees (CONTRACT §10, §16): administrators all
 * of them; agents the global ones and their own. The store applies this same
 * scope to lists and single views.
 */
export type CannedResponseScope = { all: true } | { all: false, userId: number }

/** The caller's scope; 403 for customers. */
export function cannedResponseScope (actor: Actor): CannedResponseScope {
  ensureStaff(actor)
  return isAdmin(actor) ? { all: true } : { all: false, userId: actor.id }
}

/** Only the creator or an administrator may change or delete one. */
export function canChangeCannedResponse (actor: Actor, response: Pick<CannedResponse, 'user_id'>): boolean {
  return isAdmin(actor) || response.user_id === actor.id
}

export function ensureCanChangeCannedResponse (actor: Actor, response: Pick<CannedResponse, 'user_id'>): void {
  ensure(canChangeCannedResponse(actor, response), 'Only its creator or an administrator may change this canned response.')
}
