import { Type } from '@sinclair/typebox'
import { MAIL_STATUSES, mailList } from '@helpdesk/core'
import { DateTime, listQuerystring, Nullable, NullableDateTime, Paged } from '../common.js'

export const MailMessage = Type.Object({
  id: Type.Integer(),
  direction: Type.Union([Type.Literal('in'), Type.Literal('out')]),
  status: Type.Union(MAIL_STATUSES.map((s) => Type.Literal(s)), {
    description: 'Sent mail: pending, sent, failed (retried with backoff until it gives up), cancelled (its ticket or comment is gone). ' +
      'Received mail: received (being processed), processed, ignored (auto-reply, bounce, our own mail), failed (kept with the reason in `error`), ' +
      'held (its sender is not verified: not posted, nobody mailed; the reason in `error`, until an administrator releases or discards it), discarded.'
  }),
  kind: Nullable(Type.String({ description: 'Sent mail: reply, closed, new-ticket, customer-reply or assigned.' })),
  message_id: Nullable(Type.String()),
  ticket_id: Nullable(Type.Integer()),
  comment_id: Nullable(Type.Integer()),
  user_id: Nullable(Type.Integer({ description: 'The recipient (sent) or the sender (received) as a user.' })),
  author_id: Nullable(Type.Integer()),
  sender: Nullable(Type.String()),
  recipient: Nullable(Type.String()),
  subject: Nullable(Type.String()),
  error: Nullable(Type.String({ description: 'What the SMTP server answered, or why a received mail was ignored, held or not processed.' })),
  attempts: Type.Integer(),
  created_at: DateTime,
  updated_at: DateTime,
  sent_at: NullableDateTime
})

/** The mail list's query (`mailList`: `filter[status]`, `filter[ticket]`, pages or a cursor), and `status`, its older spelling. */
export const MailListQuery = Type.Object({
  ...listQuerystring(mailList).properties,
  status: Type.Optional(Type.Union(MAIL_STATUSES.map((s) => Type.Literal(s)), { description: 'Deprecated: `filter[status]`, which also takes several.' }))
}, { additionalProperties: true })

export const MailPage = Paged(MailMessage)

export const InboundResult = Type.Object({
  id: Nullable(Type.Integer({ description: 'The record of the mail (null for a duplicate).' })),
  status: Type.Union([Type.Literal('created'), Type.Literal('replied'), Type.Literal('duplicate'), Type.Literal('ignored'), Type.Literal('failed'), Type.Literal('held')], {
    description: 'held: kept for an administrator, its sender not verified (see `reason`); ignored also answers a discarded held mail.'
  }),
  ticket_id: Nullable(Type.Integer()),
  comment_id: Nullable(Type.Integer()),
  reason: Nullable(Type.String())
})

export const UnsubscribeParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) })

export const ReleaseBody = Type.Object({
  user_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Post it as this user (the identity the administrator confirms); default: the user of its sender address, created as a customer when unknown.' }))
}, { examples: [{}, { user_id: 12 }] })
