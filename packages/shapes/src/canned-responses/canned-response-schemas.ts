import { Type, type Static } from '@sinclair/typebox'
import { CANNED_RESPONSE_LIMITS, type CannedResponse as CannedResponseEntity } from '@helpdesk/core'
import { DateTime } from '../common.js'

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })

export const CannedResponse = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer({ description: 'The creator.' }),
  global: Type.Boolean({ description: 'True: visible to all staff. False: to its creator and administrators.' }),
  name: Type.String(),
  body: Type.String({ description: 'Sanitised HTML; may hold placeholder tokens such as `{{ ticket.id }}`.' }),
  created_at: DateTime,
  updated_at: DateTime
}, { description: 'A reusable reply.' })

const writable = {
  name: Type.String({ minLength: 1, maxLength: CANNED_RESPONSE_LIMITS.name }),
  body: Type.String({
    minLength: 1,
    maxLength: CANNED_RESPONSE_LIMITS.body,
    description: 'HTML (sanitised). Tokens: `{{ticket.id}}`, `{{ticket.title}}`, `{{ticket.status}}`, `{{ticket.category}}`, ' +
      '`{{customer.first_name}}`, `{{customer.last_name}}`, `{{customer.email}}`, `{{agent.first_name}}`, `{{agent.last_name}}`.'
  }),
  global: Type.Optional(Type.Boolean({ description: 'Default false.' }))
}

export const CannedResponseCreate = Type.Object(writable, {
  examples: [{ name: 'Thanks', body: '<p>Hello {{ customer.first_name }}, thanks for ticket #{{ ticket.id }}.</p>', global: true }]
})
export const CannedResponseUpdate = Type.Partial(Type.Object(writable), { description: 'Absent keys keep their value.', examples: [{ global: false }] })

export const BulkDeleteBody = Type.Object({
  responses: Type.Array(Id, { minItems: 1, maxItems: 1000, description: 'Ids to delete: all of them or, on any error, none.' })
}, { examples: [{ responses: [4, 7] }] })

export const PlaceholderParams = Type.Object({ id: Id, ticket_id: Id })

export const RenderedResponse = Type.Object({
  response: Type.String({ description: 'The body with its placeholders replaced by the ticket\'s values (HTML-escaped), sanitised again like a body; unknown tokens stay as written.' })
})

export function presentCannedResponse (response: CannedResponseEntity): Static<typeof CannedResponse> {
  return response
}
