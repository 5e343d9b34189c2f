import { Type } from '@sinclair/typebox'
import { actsAsStaff, type ActorInput, type Ticket } from '@helpdesk/core'
import { NullableDateTime } from '../common.js'

const due = (description: string) => Type.Optional(Type.Union(NullableDateTime.anyOf, { description }))

/** A ticket's SLA due times, for staff (docs/sla.md); customers never see them. */
export const TicketDue = Type.Object({
  first_response_due_at: due('Staff only: when the first response falls due; null once answered, paused or without target.'),
  next_response_due_at: due('Staff only: when the answer to the waiting customer reply falls due.'),
  resolution_due_at: due('Staff only: when resolution falls due (null while paused or closed).'),
  sla_next_due_at: due('Staff only: the earliest due time whose breach is still to be announced.')
})

/** Sets the due times on a presented ticket when `viewer` is staff. */
export function presentTicketDue (presented: Record<string, unknown>, ticket: Ticket, viewer: ActorInput): void {
  if (!actsAsStaff(viewer)) return
  presented.first_response_due_at = ticket.first_response_due_at ?? null
  presented.next_response_due_at = ticket.next_response_due_at ?? null
  presented.resolution_due_at = ticket.resolution_due_at ?? null
  presented.sla_next_due_at = ticket.sla_next_due_at ?? null
}
