import { slaCalendarList, slaPolicyList } from '@helpdesk/core'
import {
  Data, IcalImportBody, IdParams, listQuerystring, Paged, PolicyOrderBody, presentCalendar, presentPolicy, presentTicketSla, responses, SlaCalendar,
  SlaCalendarCreate, SlaCalendarUpdate, SlaPolicy, SlaPolicyCreate, SlaPolicyUpdate, Success, TicketSla
} from '@helpdesk/shapes'
import { Type } from '@sinclair/typebox'
import { actorOf } from '../../http/authentication.js'
import { listQueryFrom, pagedResponse } from '../../http/list-request.js'
import type { HelpdeskApp, RouteContext } from '../../http/route-context.js'

/** SLA calendars and policies (administrators) and a ticket's clocks (staff): docs/sla.md. */
export function slaRoutes (app: HelpdeskApp, { helpdesk }: RouteContext): void {
  const tags = ['SLA']
  const sla = helpdesk.sla

  app.get('/sla/calendars', {
    schema: { tags, summary: 'List business-hours calendars', querystring: listQuerystring(slaCalendarList), response: responses({ 200: Paged(SlaCalendar) }) }
  }, async (request) => pagedResponse(request, await sla.listCalendars(actorOf(request), listQueryFrom(request, slaCalendarList)), presentCalendar))

  app.get('/sla/calendars/:id', {
    schema: { tags, summary: 'View a calendar', params: IdParams, response: responses({ 200: Data(SlaCalendar) }) }
  }, async (request) => ({ data: presentCalendar(await sla.viewCalendar(actorOf(request), request.params.id)) }))

  app.post('/sla/calendars', {
    schema: { tags, summary: 'Create a calendar', body: SlaCalendarCreate, response: responses({ 201: Data(SlaCalendar) }) }
  }, async (request, reply) => await reply.code(201).send({ data: presentCalendar(await sla.createCalendar(actorOf(request), request.body)) }))

  app.patch('/sla/calendars/:id', {
    schema: {
      tags,
      summary: 'Update a calendar (partial); open tickets are recalculated in the background',
      params: IdParams,
      body: SlaCalendarUpdate,
      response: responses({ 200: Data(SlaCalendar) })
    }
  }, async (request) => ({ data: presentCalendar(await sla.updateCalendar(actorOf(request), request.params.id, request.body)) }))

  app.delete('/sla/calendars/:id', {
    schema: { tags, summary: 'Delete a calendar no policy uses', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await sla.deleteCalendar(actorOf(request), request.params.id)
    return { success: true as const }
  })

  app.post('/sla/calendars/:id/holidays/ical', {
    schema: {
      tags,
      summary: 'Import holidays from an iCal file',
      description: 'All-day events become holidays (recurring ones expanded over the years asked for); dates the calendar has keep their names.',
      params: IdParams,
      body: IcalImportBody,
      response: responses({ 200: Data(SlaCalendar) })
    }
  }, async (request) => ({ data: presentCalendar(await sla.importHolidays(actorOf(request), request.params.id, request.body)) }))

  app.get('/sla/policies', {
    schema: {
      tags,
      summary: 'List SLA policies (matching order by default)',
      querystring: listQuerystring(slaPolicyList),
      response: responses({ 200: Paged(SlaPolicy) })
    }
  }, async (request) => pagedResponse(request, await sla.listPolicies(actorOf(request), listQueryFrom(request, slaPolicyList)), presentPolicy))

  app.get('/sla/policies/:id', {
    schema: { tags, summary: 'View a policy', params: IdParams, response: responses({ 200: Data(SlaPolicy) }) }
  }, async (request) => ({ data: presentPolicy(await sla.viewPolicy(actorOf(request), request.params.id)) }))

  app.post('/sla/policies', {
    schema: { tags, summary: 'Create a policy (placed last before the default one)', body: SlaPolicyCreate, response: responses({ 201: Data(SlaPolicy) }) }
  }, async (request, reply) => await reply.code(201).send({ data: presentPolicy(await sla.createPolicy(actorOf(request), request.body)) }))

  app.patch('/sla/policies/:id', {
    schema: {
      tags,
      summary: 'Update a policy (partial); open tickets are recalculated in the background',
      params: IdParams,
      body: SlaPolicyUpdate,
      response: responses({ 200: Data(SlaPolicy) })
    }
  }, async (request) => ({ data: presentPolicy(await sla.updatePolicy(actorOf(request), request.params.id, request.body)) }))

  app.delete('/sla/policies/:id', {
    schema: { tags, summary: 'Delete a policy (not the default one)', params: IdParams, response: responses({ 200: Success }) }
  }, async (request) => {
    await sla.deletePolicy(actorOf(request), request.params.id)
    return { success: true as const }
  })

  app.post('/sla/policies/order', {
    schema: { tags, summary: 'Reorder policies', body: PolicyOrderBody, response: responses({ 200: Data(Type.Array(SlaPolicy)) }) }
  }, async (request) => ({ data: (await sla.reorderPolicies(actorOf(request), request.body.order)).map(presentPolicy) }))

  app.get('/tickets/:id/sla', {
    schema: {
      tags,
      summary: 'A ticket\'s SLA clocks (staff)',
      description: 'The policy in force, each target\'s state (met, breached, by how much), the paused time and the due times.',
      params: IdParams,
      response: responses({ 200: Data(TicketSla) })
    }
  }, async (request) => ({ data: presentTicketSla(await sla.forTicket(actorOf(request), request.params.id)) }))
}
