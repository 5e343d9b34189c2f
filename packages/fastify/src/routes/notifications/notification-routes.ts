import { notificationList } from '@helpdesk/core'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'
import { Data, IgnoredIdParams, listQuerystring, Notification, NotificationParams, Paged, presentNotification, responses, Success } from '@helpdesk/shapes'

/** The authenticated user's own notifications (any role; another user's id is 404). */
export function notificationRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  const tags = ['Notifications']
  const notifications = helpdesk.notifications
  const present = (n: Parameters<typeof presentNotification>[0]) => presentNotification(n, avatar)

  app.get('/notifications', {
    schema: { tags, summary: 'List my notifications (newest first)', querystring: listQuerystring(notificationList), response: responses({ 200: Paged(Notification) }) }
  }, async (request) => {
    const page = await notifications.list(actorOf(request), listQueryFrom(request, notificationList))
    return pagedResponse(request, page, present)
  })

  app.get('/notifications/:id', {
    schema: { tags, summary: 'View one of my notifications', params: NotificationParams, response: responses({ 200: Data(Notification) }) }
  }, async (request) => ({ data: present(await notifications.view(actorOf(request), request.params.id)) }))

  app.post('/notifications/:id/read', {
    schema: { tags, summary: 'Mark a notification read', params: NotificationParams, response: responses({ 200: Data(Notification) }) }
  }, async (request) => ({ data: present(await notifications.markRead(actorOf(request), request.params.id)) }))

  app.delete('/notifications/:id/read', {
    schema: { tags, summary: 'Mark a notification unread', params: NotificationParams, response: responses({ 200: Data(Notification) }) }
  }, async (request) => ({ data: present(await notifications.markUnread(actorOf(request), request.params.id)) }))

  app.get('/notifications/:id/unread', {
    schema: {
      tags,
      summary: 'List my unread notifications (the id is ignored)',
      params: IgnoredIdParams,
      querystring: listQuerystring(notificationList),
      response: responses({ 200: Paged(Notification) })
    }
  }, async (request) => {
    const page = await notifications.unread(actorOf(request), listQueryFrom(request, notificationList))
    return pagedResponse(request, page, present)
  })

  app.delete('/notifications/:id/unread', {
    schema: { tags, summary: 'Mark all my notifications read (the id is ignored)', params: IgnoredIdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await notifications.markAllRead(actorOf(request))
    return { success: true as const }
  })
}
