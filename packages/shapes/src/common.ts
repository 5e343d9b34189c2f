import { Type, type TSchema } from '@sinclair/typebox'
import { LIMITS, type ListSpec } from '@helpdesk/core'

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

/** `{ message }`, described for the status it answers, so OpenAPI says when it happens. */
export const errorBody = (description: string) => Type.Object({
  message: Type.String({ description: 'A sentence a person can read.' })
}, { description })

export const ErrorBody = errorBody('Error')

export const ValidationErrorBody = Type.Object({
  message: Type.String({ description: 'The first problem, and how many more there are.' }),
  errors: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'One key per invalid field (dotted paths for nested values, e.g. `categories.0`).'
  })
}, {
  description: 'Validation failed: nothing was written.',
  examples: [{ message: 'The email field is required. (and 1 more error)', errors: { email: ['The email field is required.'], 'categories.0': ['The selected categories.0 is invalid.'] } }]
})

/** 413 of the upload routes. */
export const PayloadTooLargeBody = errorBody('The file is over 30 MB.')

/** A `multipart/form-data` body with one `file` field, for a route's `config.multipartBody`. */
export const FileUpload = (description: string) => Type.Object({
  file: Type.String({ format: 'binary', contentMediaType: 'application/octet-stream', description })
})

const Links = Type.Object({
  first: Type.String(),
  last: Nullable(Type.String({ description: 'Null with cursor paging (the last page is not known).' })),
  prev: Nullable(Type.String()),
  next: Nullable(Type.String({ description: 'With cursor paging, carries the next page\'s `cursor`.' }))
})
const counted = (schema: TSchema) => Type.Optional(schema)
const Meta = Type.Object({
  current_page: counted(Type.Integer({ description: 'Absent with cursor paging, as are `from`, `to`, `last_page` and `total`.' })),
  from: counted(Nullable(Type.Integer())),
  last_page: counted(Type.Integer()),
  path: Type.String(),
  per_page: Type.Integer(),
  to: counted(Nullable(Type.Integer())),
  total: counted(Type.Integer({ description: 'Matching items; at least this many when `total_relation` is `gte`.' })),
  total_relation: Type.Optional(Type.Literal('gte', {
    description: 'Present when counting stopped early (a search or owner filter matching very many items): `total` is a lower bound.'
  })),
  next_cursor: Type.Optional(Nullable(Type.String({ description: 'Cursor paging: the `cursor` of the next page, null on the last.' }))),
  prev_cursor: Type.Optional(Nullable(Type.String({ description: 'Cursor paging: the `cursor` of the previous page, null on the first.' })))
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

/** Fields of a person being created or changed (customers, agents, registration). */
export const PersonName = Type.String({ minLength: 1, maxLength: LIMITS.name })
export const PersonEmail = Type.String({ format: 'email', maxLength: LIMITS.email })
export const NewPassword = Type.String({ minLength: LIMITS.password, maxLength: 1024 })
export const PasswordConfirmation = Type.String({ maxLength: 1024 })

/** The name and email of a body creating a person (customers, agents, registration)... */
export const NewPersonNames = { first_name: PersonName, last_name: PersonName, email: PersonEmail }
/** ...and its password, with the optional confirmation. */
export const NewPersonPassword = { password: NewPassword, password_confirmation: Type.Optional(PasswordConfirmation) }
/** The same for a body changing a person (customers, agents): absent keys keep their value. */
export const PersonNamesUpdate = { first_name: Type.Optional(PersonName), last_name: Type.Optional(PersonName), email: Type.Optional(PersonEmail) }
export const PersonPasswordUpdate = { new_password: Type.Optional(NewPassword), new_password_confirmation: Type.Optional(PasswordConfirmation) }

/**
 * A person embedded in another resource (owner, creator, agent, author...). The email follows
 * CONTRACT §17: null (the key present) when the caller is a customer or anonymous and the person is not the caller.
 */
export const EmbeddedPerson = Type.Object({
  ...Person.properties,
  email: Nullable(Type.String({ description: 'Null unless the caller is staff or this person.' }))
})

export const NotificationSettings = Type.Object({
  new_ticket: Type.Boolean(), new_comment: Type.Boolean(), ticket_reassigned: Type.Boolean()
})
export const NotificationSettingsPatch = Type.Partial(NotificationSettings, {
  additionalProperties: false,
  description: 'Absent keys keep their value.',
  examples: [{ new_comment: false }]
})

/** Error responses every route can give (CONTRACT §6). */
export const errorResponses = {
  400: errorBody('Bad request: an unknown include, sort or filter (the message names it and the allowed values), or a body that is not valid JSON.'),
  401: errorBody('Unauthenticated: no bearer token, or one that is unknown or revoked (`{"message": "Unauthenticated."}`).'),
  403: errorBody('Forbidden: the caller can see the resource but may not do this.'),
  404: errorBody('Not found, or not visible to the caller.'),
  422: ValidationErrorBody,
  429: errorBody('Too many requests: wait `Retry-After` seconds (`X-RateLimit-Reset` is the unix time of the reset).'),
  500: errorBody('Unexpected server error (never with internals).'),
  503: errorBody('The database cannot be reached; try again shortly.')
}

/** 409: the state moved on since the caller read it (`HD_CONFLICT`). */
export const ConflictBody = errorBody('Conflict: the resource changed since you read it (e.g. someone commented after your draft began); the message says what to read again.')

/** Adds the shared error responses to a route's success responses. */
export function responses<T extends Record<number, TSchema>> (success: T): T & typeof errorResponses {
  return { ...errorResponses, ...success }
}

/** The query string of a list, documented from its declaration (include, sort, filter[...], page, per_page). */
export function listQuerystring (spec: ListSpec) {
  const filters: Record<string, TSchema> = {}
  for (const name of spec.partialFilters) filters[`filter[${name}]`] = Type.String({ description: `Case-insensitive substring match on ${name}.` })
  for (const name of spec.exactFilters) filters[`filter[${name}]`] = Type.String({ description: `Exact match on ${name}; several values comma separated.` })
  for (const name of spec.sinceFilters ?? []) {
    filters[`filter[${name}]`] = Type.String({ description: 'Items at or after this UTC time: `YYYY-MM-DD HH:MM:SS`, or ISO 8601.' })
  }
  for (const name of spec.beforeFilters ?? []) {
    filters[`filter[${name}]`] = Type.String({ description: 'Items strictly before this UTC time: `YYYY-MM-DD HH:MM:SS`, or ISO 8601.' })
  }
  return Type.Object({
    include: Type.Optional(Type.String({ description: spec.includes.length > 0 ? `Comma separated: ${spec.includes.join(', ')}.` : 'No includes.' })),
    sort: Type.Optional(Type.String({ description: `Comma separated, \`-\` for descending: ${spec.sorts.join(', ')}. Default \`${spec.defaultSort}\`.` })),
    page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, from 1.' })),
    cursor: Type.Optional(Type.String({
      description: 'Cursor paging instead of `page`, for walking large lists: empty for the first page, then the value `links.next` carries. Nothing is counted. `page[cursor]` is accepted too.'
    })),
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
