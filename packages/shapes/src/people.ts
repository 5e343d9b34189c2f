import { canSeeEmailOf, userType, type ActorInput, type AvatarResolver, type PersonSummary } from '@helpdesk/core'
import type { Static } from '@sinclair/typebox'
import type { EmbeddedPerson, Person } from './common.js'

/** The authenticated user's own person shape. */
export function presentPerson (user: PersonSummary, avatar: AvatarResolver): Static<typeof Person> {
  return {
    id: user.id,
    type: userType(user),
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    avatar: avatar(user)
  }
}

/**
 * A person embedded in another resource, as `viewer` may see them (CONTRACT §17: the email
 * only for staff and the person themselves); a missing (deleted) user is null.
 */
export function presentEmbeddedPerson (user: unknown, avatar: AvatarResolver, viewer: ActorInput): Static<typeof EmbeddedPerson> | null {
  if (user === null || user === undefined) return null
  const person = presentPerson(user as PersonSummary, avatar)
  return canSeeEmailOf(viewer, person) ? person : { ...person, email: null }
}
