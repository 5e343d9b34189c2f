import { canSeeEmailOf, userType, type ActorInput, type AvatarResolver, type PersonService, type PersonSummary } from '@helpdesk/core'
import type { Static } from '@sinclair/typebox'
import { actorOf } from '../http/authentication.js'
import type { HelpdeskApp } from '../http/route-context.js'
import {
  Data, IdParams, NotificationSettings, NotificationSettingsPatch, responses, type EmbeddedPerson, type Person
} from '../schemas/common.js'

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

/** `GET` and `PATCH`/`POST`/`PUT` `{base}/:id/notifications`: the notification settings of an agent or a customer. */
export function notificationSettingsRoutes (app: HelpdeskApp, base: '/agents' | '/customers', tags: string[], noun: string, people: PersonService): void {
  app.get(`${base}/:id/notifications`, {
    schema: { tags, summary: `Notification settings of ${noun}`, params: IdParams, response: responses({ 200: Data(NotificationSettings) }) }
  }, async (request) => ({ data: await people.notificationSettings(actorOf(request), request.params.id) }))

  app.route({
    method: ['PATCH', 'POST', 'PUT'],
    url: `${base}/:id/notifications`,
    schema: { tags, summary: `Change notification settings of ${noun}`, params: IdParams, body: NotificationSettingsPatch, response: responses({ 200: Data(NotificationSettings) }) },
    handler: async (request) => ({ data: await people.updateNotificationSettings(actorOf(request), request.params.id, request.body) })
  })
}
