import { Type, type Static } from '@sinclair/typebox'
import { HISTORY_DOORS, type ActorInput, type AvatarResolver, type TicketHistoryEntry as Entry, type WithIncludes } from '@helpdesk/core'
import { DateTime, EmbeddedPerson, Nullable } from '../common.js'
import { presentEmbeddedPerson } from '../people.js'

/** Who made a change or an administrative action: the kind of actor, its user (when a person), a name that stays. */
export const RecordedActor = Type.Object({
  kind: Type.Union([Type.Literal('person'), Type.Literal('system'), Type.Literal('automation'), Type.Literal('mail')], {
    description: '`person` a signed-in user; `system` the help desk itself (jobs, the CLI); `automation` a rule; `mail` the sender of a received mail.'
  }),
  user_id: Nullable(Type.Integer({ description: 'The acting user (null for the system and rules, and once the user is deleted).' })),
  name: Nullable(Type.String({ description: 'The rule\'s or system part\'s name, or the mail sender\'s address.' }))
})

export const Door = Type.Union(HISTORY_DOORS.map((door) => Type.Literal(door)), { description: 'The door the change came through.' })

const JsonValue = Type.Unknown({ description: 'The value as JSON (null when none, and for `body`, whose text is not kept).' })

export const TicketHistoryEntry = Type.Object({
  id: Type.Integer(),
  ticket_id: Type.Integer(),
  field: Type.String({ description: '`status`, `assignee`, `category`, `private`, `title`, `body`, `fields.<id>`, `purchase_code`, `satisfaction`, `imported`.' }),
  old_value: JsonValue,
  new_value: JsonValue,
  public: Type.Boolean({ description: 'Whether the ticket\'s owner sees this change (status changes).' }),
  door: Door,
  actor: RecordedActor,
  created_at: DateTime,
  user: Type.Optional(Nullable(EmbeddedPerson))
}, { examples: [{ id: 7, ticket_id: 12, field: 'status', old_value: 1, new_value: 3, public: true, door: 'console', actor: { kind: 'person', user_id: 3, name: null }, created_at: '2026-01-31 14:05:00' }] })

export const TicketHistoryParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) })

export function presentHistoryEntry (entry: WithIncludes<Entry>, avatar: AvatarResolver, viewer: ActorInput): Static<typeof TicketHistoryEntry> {
  return {
    id: entry.id,
    ticket_id: entry.ticket_id,
    field: entry.field,
    old_value: entry.old_value,
    new_value: entry.new_value,
    public: entry.public,
    door: entry.door,
    actor: { kind: entry.actor_kind, user_id: entry.actor_id, name: entry.actor_name },
    created_at: entry.created_at,
    ...('user' in entry ? { user: presentEmbeddedPerson(entry.user, avatar, viewer) } : {})
  }
}
