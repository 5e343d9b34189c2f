import { ForbiddenError } from '../errors.js'
import { actsAsAdmin, actsAsStaff, isPerson, personOf, type ActorInput } from './actor.js'
import { Role, type PermissionKey, type User } from './user.js'

/**
 * Who may do what, as reusable checks. Each `can*` answers; each `ensure*`
 * throws ForbiddenError. Routes and services call these; nothing else decides.
 * They answer for every kind of actor (`actor.ts`): administrators, the
 * system and automation rules hold every right; agents their permissions;
 * customers, mail senders and the anonymous none of these.
 */
export function hasPermission (actor: ActorInput, key: PermissionKey): boolean {
  if (actsAsAdmin(actor)) return true
  return isPerson(actor) && actor.role === Role.Agent && actor.permissions[key]
}

export function canManageCustomers (actor: ActorInput): boolean {
  return hasPermission(actor, 'manage_customers')
}

/**
 * Whether `viewer` may read `person`'s email (CONTRACT §17): staff read every
 * email, a person reads their own, a customer or an anonymous reader nobody else's.
 */
export function canSeeEmailOf (viewer: ActorInput, person: Pick<User, 'id'>): boolean {
  return actsAsStaff(viewer) || personOf(viewer)?.id === person.id
}

export function canManageAgents (actor: ActorInput): boolean {
  return actsAsAdmin(actor)
}

export function canManageCategories (actor: ActorInput): boolean {
  return actsAsAdmin(actor)
}

export function ensure (allowed: boolean, message?: string): void {
  if (!allowed) throw new ForbiddenError(message)
}

export function ensureAdmin (actor: ActorInput): void {
  ensure(actsAsAdmin(actor))
}

export function ensureStaff (actor: ActorInput): void {
  ensure(actsAsStaff(actor))
}

export function ensurePermission (actor: ActorInput, key: PermissionKey): void {
  ensure(hasPermission(actor, key))
}
