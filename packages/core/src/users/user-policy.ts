import { ForbiddenError } from '../errors.js'
import { isAdmin, isStaff, Role, type Actor, type PermissionKey } from './user.js'

/**
 * Who may do what, as reusable checks. Each `can*` answers; each `ensure*`
 * throws ForbiddenError. Routes and services call these; nothing else decides.
 */
export function hasPermission (actor: Actor, key: PermissionKey): boolean {
  if (isAdmin(actor)) return true
  return actor.role === Role.Agent && actor.permissions[key]
}

export function canManageCustomers (actor: Actor): boolean {
  return hasPermission(actor, 'manage_customers')
}

/**
 * Whether `viewer` may read `person`'s email (CONTRACT §17): staff read every
 * email, a person reads their own, a customer or an anonymous reader nobody else's.
 */
export function canSeeEmailOf (viewer: Actor | null, person: Pick<Actor, 'id'>): boolean {
  if (viewer === null) return false
  return isStaff(viewer) || viewer.id === person.id
}

export function canManageAgents (actor: Actor): boolean {
  return isAdmin(actor)
}

export function canManageCategories (actor: Actor): boolean {
  return isAdmin(actor)
}

export function ensure (allowed: boolean, message?: string): void {
  if (!allowed) throw new ForbiddenError(message)
}

export function ensureAdmin (actor: Actor): void {
  ensure(isAdmin(actor))
}

export function ensureStaff (actor: Actor): void {
  ensure(isStaff(actor))
}

export function ensurePermission (actor: Actor, key: PermissionKey): void {
  ensure(hasPermission(actor, key))
}
