import { Type, type Static } from '@sinclair/typebox'
import { LIMITS, NOTE_MAX_LENGTH, type ActorInput, type AvatarResolver, type CustomerNote, type User } from '@helpdesk/core'
import { DateTime, EmbeddedPerson, Nullable, NullableDateTime, UserStatusInput, NewPersonNames, NewPersonPassword, PersonNamesUpdate, PersonPasswordUpdate } from '../common.js'
import { presentEmbeddedPerson } from '../people.js'

export const Customer = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  company: Nullable(Type.String()),
  avatar: Type.String({ description: 'Avatar URL.' }),
  status: Type.Integer({ description: '1 Active, 2 Unconfirmed, 3 Banned.' }),
  marketplace_username: Nullable(Type.String()),
  created_at: DateTime,
  updated_at: DateTime,
  last_login_at: NullableDateTime,
  tickets_count: Type.Optional(Type.Integer({ description: 'Include `tickets-count`.' })),
  notes_count: Type.Optional(Type.Integer({ description: 'Include `notes-count`.' }))
})


const CompanyInput = Type.Optional(Nullable(Type.String({ maxLength: LIMITS.company })))

export const CustomerCreate = Type.Object({
  ...NewPersonNames,
  company: CompanyInput,
  ...NewPersonPassword
}, { examples: [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', company: 'Navy', password: 'cobol-1959', password_confirmation: 'cobol-1959' }] })

export const CustomerUpdate = Type.Object({
  ...PersonNamesUpdate,
  company: CompanyInput,
  ...PersonPasswordUpdate,
  status: Type.Optional(UserStatusInput)
}, { description: 'Absent keys keep their value.', examples: [{ company: 'US Navy' }, { new_password: 'flow-matic', new_password_confirmation: 'flow-matic' }, { status: 3 }] })

export const Note = Type.Object({
  id: Type.Integer(),
  text: Type.String(),
  created_at: DateTime,
  updated_at: DateTime,
  creator: Type.Optional(Nullable(EmbeddedPerson)),
  user: Type.Optional(Nullable(EmbeddedPerson))
})

export const NoteCreate = Type.Object({
  note: Type.String({ minLength: 1, maxLength: NOTE_MAX_LENGTH, description: 'Plain text or HTML (sanitised).' })
}, { examples: [{ note: '<p>Prefers e-mail over phone.</p>' }] })

export const NoteParams = Type.Object({
  customer_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  note_id: Type.Integer({ minimum: 1, maximum: 2147483647 })
})

export function presentCustomer (user: User, avatar: AvatarResolver): Static<typeof Customer> {
  const included = user as User & Record<string, unknown>
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    company: user.company,
    avatar: avatar(user),
    status: user.status,
    marketplace_username: user.marketplace_username,
    created_at: user.created_at,
    updated_at: user.updated_at,
    last_login_at: user.last_login_at,
    ...(included.tickets_count !== undefined ? { tickets_count: included.tickets_count as number } : {}),
    ...(included.notes_count !== undefined ? { notes_count: included.notes_count as number } : {})
  }
}

export function presentNote (note: CustomerNote, avatar: AvatarResolver, viewer: ActorInput): Static<typeof Note> {
  const included = note as CustomerNote & Record<string, unknown>
  return {
    id: note.id,
    text: note.text,
    created_at: note.created_at,
    updated_at: note.updated_at,
    ...('creator' in note ? { creator: presentEmbeddedPerson(included.creator, avatar, viewer) } : {}),
    ...('user' in note ? { user: presentEmbeddedPerson(included.user, avatar, viewer) } : {})
  }
}
