import type { PersonService } from '@helpdesk/core'
import { actorOf } from '../http/authentication.js'
import type { HelpdeskApp } from '../http/route-context.js'
import { Data, IdParams, NotificationSettings, NotificationSettingsPatch, responses } from '@helpdesk/shapes'

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
