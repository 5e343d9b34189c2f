import { Type, type TSchema } from '@sinclair/typebox'
import type { ListSpec } from '@helpdesk/core'

/** `YYYY-MM-DD HH:MM:SS`, UTC. */
export const DateTime = Type.String({ description: 'UTC datetime, `YYYY-MM-DD HH:MM:SS`.', examples: ['2026-01-31 14:05:00'] })
export const NullableDateTime = Type.Union([DateTime, Type.Null()])
/** The agent resource's ISO 8601 form. */
export const IsoDateTime = Type.String({ description: 'UTC datetime, ISO 8601 (`YYYY-MM-DDTHH:MM:SSZ`).', examples: ['2026-01-31T14:05:00Z'] })
export const NullableIsoDateTime = Type.Union([IsoDateTime, Type.Null()])

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) })

/** `{ data: T }` */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema })

export const Success = Type.Object({ success: Type.Literal(true) }, { description: 'The action was carried out.' })

export const ErrorBody = Type.Object({
  message: Type.String({ description: 'A sentence a person can read.' })
}, { description: 'Error' })

export const ValidationErrorBody = Type.Object({
  message: Type.String(),
  errors: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'One key per invalid field (dotted paths for nested values, e.g. `categories.0`).'
  })
}, { description: 'Validation failed' })

const Links = Type.Object({
  first: Type.String(), last: Type.String(), prev: Nullable(Type.String()), next: Nullable(Type.String())
})
const Meta = Type.Object({
  current_page: Type.Integer(),
  from: Nullable(Type.Integer()),
  last_page: Type.Integer(),
  path: Type.String(),
  per_page: Type.Integer(),
  to: Nullable(Type.Integer()),
  total: Type.Integer()
})

/** `{ data: T[], links, meta }` (CONTRACT §5). */
export const Paged = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), links: Links, meta: Meta })

/** The person shape used for the authenticated user and every embedded user (owner, author, creator...). */
export const Person = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('admin'), Type.Literal('agent'), Type.Literal('customer')]),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  avatar: Type.String()
})

/** A person's status, writable by staff on update: how people are banned and unbanned. */
export const UserStatusInput = Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
  description: '1 Active, 2 Unconfirmed, 3 Banned (banned users cannot log in and their tokens stop working).'
})

/** A staff member shown on public content (an article's author): the email only for staff readers. */
export const PublicPerson = Type.Object({
  ...Person.properties,
  email: Type.Optional(Type.String({ description: 'Shown to staff only.' }))
})

export const NotificationSettings = Type.Object({
  new_ticket: Type.Boolean(), new_comment: Type.Boolean(), ticket_reassigned: Type.Boolean()
})
export const NotificationSettingsPatch = Type.Partial(NotificationSettings, { additionalProperties: false })

/** Error responses every authenticated route can give. */
export const errorResponses = {
  400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody, 500: ErrorBody, 503: ErrorBody
}

/** Adds the shared error responses to a route's success responses. */
export function responses<T extends Record<number, TSchema>> (success: T): T & typeof errorResponses {
  return { ...errorResponses, ...success }
}

/** The query string of a list, documented from its declaration (include, sort, filter[...], page, per_page). */
export function listQuerystring (spec: ListSpec) {
  const filters: Record<string, TSchema> = {}
  for (const name of spec.partialFilters) filters[`filter[${name}]`] = Type.String({ description: `Case-insensitive substring match on ${name}.` })
  for (const name of spec.exactFilters) filters[`filter[${name}]`] = Type.String({ description: `Exact match on ${name}; several values comma separated.` })
  return Type.Object({
    include: Type.Optional(Type.String({ description: spec.includes.length > 0 ? `Comma separated: ${spec.includes.join(', ')}.` : 'No includes.' })),
    sort: Type.Optional(Type.String({ description: `Comma separated, \`-\` for descending: ${spec.sorts.join(', ')}. Default \`${spec.defaultSort}\`.` })),
    page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, from 1.' })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 15, max 100).' })),
    ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, Type.Optional(v)]))
  }, { additionalProperties: true })
}

/** The query string of a single view: the list's includes. */
export function viewQuerystring (spec: ListSpec) {
  return Type.Object({
    include: Type.Optional(Type.String({ description: spec.includes.length > 0 ? `Comma separated: ${spec.includes.join(', ')}.` : 'No includes.' }))
  })
}
