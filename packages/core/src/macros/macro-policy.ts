import { actsAsAdmin, personOf, type ActorInput } from '../users/actor.js'
import { ensure, ensureStaff } from '../users/user-policy.js'
import type { Macro } from './macro.js'

/**
 * Which macros a caller sees: staff see the shared ones and their own
 * personal ones (administrators too: a personal macro is its owner's alone).
 * The system (no person) sees the shared ones.
 */
export interface MacroScope { ownerId: number | null }

/** The caller's scope; 403 for customers. */
export function macroScope (actor: ActorInput): MacroScope {
  ensureStaff(actor)
  return { ownerId: personOf(actor)?.id ?? null }
}

/** Shared macros: administrators; personal ones: their owner. */
export function canManageMacro (actor: ActorInput, macro: Pick<Macro, 'shared' | 'user_id'>): boolean {
  if (macro.shared) return actsAsAdmin(actor)
  const person = personOf(actor)
  return person !== null && macro.user_id === person.id
}

export function ensureCanManageMacro (actor: ActorInput, macro: Pick<Macro, 'shared' | 'user_id'>): void {
  ensure(canManageMacro(actor, macro), macro.shared
    ? 'Only administrators may create or change shared macros.'
    : 'Only its owner may change a personal macro.')
}
