import { auditLogList } from '@helpdesk/core'
import { AuditEntry, listQuerystring, Paged, presentAuditEntry, responses } from '@helpdesk/shapes'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'

/** `GET /audit-log`: changes to the help desk itself, for administrators. */
export function auditRoutes (app: HelpdeskApp, { helpdesk, avatar }: RouteContext): void {
  app.get('/audit-log', {
    schema: {
      tags: ['Audit log'],
      summary: 'Changes to the help desk itself: who did what, from where, before and after (administrators)',
      description: 'Newest first. Filters: `filter[action]` (several allowed: `agent.updated,category.created`), `filter[actor]` (user ids), ' +
        '`filter[subject_type]`, `filter[subject_id]`, and a time range with `filter[created_since]` (at or after) and `filter[created_before]`. ' +
        'For an incremental export, page with `sort=id` and `filter[created_since]=<last export>` and follow `links.next`. Secrets never appear: ' +
        'their values read `[redacted]`. 403 for anyone but administrators.',
      querystring: listQuerystring(auditLogList),
      response: responses({ 200: Paged(AuditEntry) })
    }
  }, async (request) => {
    const page = await helpdesk.auditLog.list(actorOf(request), listQueryFrom(request, auditLogList))
    return pagedResponse(request, page, (entry) => presentAuditEntry(entry, avatar, request.actor))
  })
}
