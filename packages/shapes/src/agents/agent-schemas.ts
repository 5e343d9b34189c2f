import { Type, type Static } from '@sinclair/typebox'
import { PERMISSION_KEYS, toIso8601, type AvatarResolver, type User } from '@helpdesk/core'
import { IsoDateTime, Nullable, NullableIsoDateTime, UserStatusInput, NewPersonNames, NewPersonPassword, PersonNamesUpdate, PersonPasswordUpdate } from '../common.js'

const counts = ['notes_count', 'assigned_categories_count', 'unresolved_tickets_count', 'resolved_tickets_count'] as const

export const Agent = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  role: Type.Integer({ description: '1 Admin, 2 Agent.' }),
  email: Type.String(),
  avatar: Type.String(),
  status: Type.Integer({ description: '1 Active, 2 Unconfirmed, 3 Banned.' }),
  timezone: Nullable(Type.String()),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  last_login_at: NullableIsoDateTime,
  ...Object.fromEntries(counts.map((c) => [c, Type.Optional(Type.Integer({ description: `Include \`${c.replace(/_/g, '-')}\`.` }))]))
})


export const AgentCreate = Type.Object({
  ...NewPersonNames,
  ...NewPersonPassword
}, { examples: [{ first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', password: 'enigma-1941', password_confirmation: 'enigma-1941' }] })

export const AgentUpdate = Type.Object({
  ...PersonNamesUpdate,
  ...PersonPasswordUpdate,
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An IANA zone, e.g. Europe/Berlin.' })),
  status: Type.Optional(UserStatusInput)
}, { description: 'Absent keys keep their value.', examples: [{ timezone: 'Europe/London' }, { new_password: 'bombe-1940', new_password_confirmation: 'bombe-1940' }] })

export const Permissions = Type.Object(
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, Type.Boolean()])) as Record<typeof PERMISSION_KEYS[number], ReturnType<typeof Type.Boolean>>
)

/** Unknown keys reach the service, which answers 422 naming them. */
export const PermissionsPatch = Type.Record(Type.String(), Type.Unknown(), {
  description: `Any of: ${PERMISSION_KEYS.join(', ')} (booleans). Unknown keys are rejected with 422.`,
  examples: [{ view_all_tickets: true, manage_customers: true }]
})

export const CategoryIdsBody = Type.Object({
  categories: Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 1000, description: 'Replaces the agent\'s categories; `[]` clears them.' })
}, { examples: [{ categories: [1, 3] }] })

export function presentAgent (user: User, avatar: AvatarResolver): Static<typeof Agent> {
  const agent: Record<string, unknown> = {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    email: user.email,
    avatar: avatar(user),
    status: user.status,
    timezone: user.timezone,
    created_at: toIso8601(user.created_at),
    updated_at: toIso8601(user.updated_at),
    last_login_at: toIso8601(user.last_login_at)
  }
  const included = user as User & Record<string, unknown>
  for (const c of counts) if (included[c] !== undefined) agent[c] = included[c]
  return agent as Static<typeof Agent>
}

/** `GET`/`PUT /agents/{id}/coverage`: whether an agent covers every category (issue 35). */
export const AgentCoverage = Type.Object({
  all_categories: Type.Boolean({ description: 'The agent covers every category, present and future: sees every ticket and may be assigned any.' })
}, { additionalProperties: false, examples: [{ all_categories: true }] })
