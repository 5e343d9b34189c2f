import { Type } from '@sinclair/typebox'
import { LIMITS } from '@helpdesk/core'
import { DateTime, NewPersonNames, NewPersonPassword, Nullable, Person } from '../common.js'

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 255, examples: ['admin@example.com'] }),
  password: Type.String({ minLength: 1, maxLength: 1024 })
}, { examples: [{ email: 'admin@example.com', password: 'admin-password' }] })

export const RegisterBody = Type.Object({
  ...NewPersonNames,
  ...NewPersonPassword
}, { examples: [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', password: 'cobol-1959', password_confirmation: 'cobol-1959' }] })

export const Session = Type.Object({
  token: Type.String({ description: 'Bearer token; send as `Authorization: Bearer <token>`.' }),
  user: Person
})

export const ApiToken = Type.Object({
  id: Type.Integer(),
  name: Nullable(Type.String()),
  created_at: DateTime
})

export const NewApiToken = Type.Object({
  id: Type.Integer(),
  name: Nullable(Type.String()),
  token: Type.String({ description: 'Shown once; only its hash is stored.' }),
  created_at: DateTime
})

/** The body is optional: a token without a name may be created with no body at all. */
export const TokenBody = Type.Union([
  Type.Object({ name: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.tokenName }))) }),
  Type.Null()
], { examples: [{ name: 'deploy-bot' }] })

/** One of the caller's sessions (`GET /auth/sessions`). */
export const SessionItem = Type.Object({
  id: Type.Integer({ description: 'The session\'s token id (as `GET /auth/tokens` lists it).' }),
  type: Type.Union([Type.Literal('cookie'), Type.Literal('bearer')], {
    description: '`cookie`: a web console session; `bearer`: a token from `POST /auth/login` or `POST /auth/register`.'
  }),
  created_at: DateTime,
  last_used_at: Type.String({ description: 'UTC datetime, `YYYY-MM-DD HH:MM:SS`, of its last request, to the minute.' }),
  expires_at: Type.String({
    description: 'UTC datetime, `YYYY-MM-DD HH:MM:SS`, when it ends unless used again (its idle timeout), never after its absolute lifetime.'
  }),
  user_agent: Nullable(Type.String({ description: 'The `User-Agent` of the login (at most 255 characters).' })),
  ip: Nullable(Type.String({ description: 'The address the login came from.' })),
  current: Type.Boolean({ description: 'Whether this request is made with this session.' })
})
