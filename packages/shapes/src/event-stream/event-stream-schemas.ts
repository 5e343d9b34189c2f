import { Type } from '@sinclair/typebox'
import { errorBody } from '../common.js'

export const EventStreamQuery = Type.Object({
  last_event_id: Type.Optional(Type.String({
    pattern: '^[0-9]{1,15}$',
    description: 'Resume after this event id (as the `Last-Event-ID` header does; the header wins when both are sent).'
  })),
  poll: Type.Optional(Type.Boolean({
    description: 'Answer what is pending (the unread count, and the events missed after `last_event_id`) and end the response, instead of staying open.'
  }))
})

export const EventStreamBody = Type.Unsafe<string>({
  type: 'string',
  description: 'A `text/event-stream`: `ticket`, `notification`, `unread_count`, `presence` (staff: who else is on a ticket) and `reset` events, each (but `reset`, `presence` and the first `unread_count`) with an `id:` to resume from; a comment line every 20 seconds as a heartbeat. See docs/event-stream.md.'
})

export const TooManyStreams = errorBody('The user already holds the maximum of open event streams on this instance (`eventStream.maxConnectionsPerUser`, default 5), or too many requests.')
