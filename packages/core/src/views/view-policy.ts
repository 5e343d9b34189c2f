import { actsAsAdmin, personOf, type ActorInput } from '../users/actor.js'
import { ensure, ensureStaff } from '../users/user-policy.js'
import type { SavedView } from './view.js'

/**
 * Which views a caller sees: staff see the built-in views, the shared ones
 * and their own private ones (administrators too: a private view is its
 * owner's alone). Customers none (403).
 */
export interface ViewScope { ownerId: number | null }

export function viewScope (actor: ActorInput): ViewScope {
  ensureStaff(actor)
  return { ownerId: personOf(actor)?.id ?? null }
}

/** Built-in views: nobody; shared ones: their owner and administrators; private ones: their owner. */
export function canManageView (actor: ActorInput, view: Pick<SavedView, 'key' | 'shared' | 'user_id'>): boolean {
  if (view.key !== null) return false
  const person = personOf(actor)
  const owns = person !== null && view.user_id === person.id
  return view.shared ? owns || actsAsAdmin(actor) : owns
}

export function ensureCanManageView (actor: ActorInput, view: Pick<SavedView, 'key' | 'shared' | 'user_id'>): void {
  ensure(canManageView(actor, view), view.key !== null
    ? 'Built-in views cannot be changed.'
    : view.shared ? 'Only its owner or an administrator may change a shared view.' : 'Only its owner may change a private view.')
}
