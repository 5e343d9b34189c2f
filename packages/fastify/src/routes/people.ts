import { isStaff, userType, type AvatarResolver, type User } from '@helpdesk/core'
import type { Static } from '@sinclair/typebox'
import type { Person, PublicPerson } from '../schemas/common.js'

/** The person shape: the authenticated user, and any user embedded in another resource. */
export function presentPerson (user: User, avatar: AvatarResolver): Static<typeof Person> {
  return {
    id: user.id,
    type: userType(user),
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    avatar: avatar(user)
  }
}

/** An embedded person that may be missing (deleted user) -> null. */
export function presentPersonOrNull (user: unknown, avatar: AvatarResolver): Static<typeof Person> | null {
  return user === null || user === undefined ? null : presentPerson(user as User, avatar)
}

/** An embedded staff member on content anyone may read: staff readers see the email, others do not. */
export function presentPublicPerson (user: unknown, avatar: AvatarResolver, viewer: User | null): Static<typeof PublicPerson> | null {
  const person = presentPersonOrNull(user, avatar)
  if (person === null || (viewer !== null && isStaff(viewer))) return person
  const { email: _hidden, ...rest } = person
  return rest
}
