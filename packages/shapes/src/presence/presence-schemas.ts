import { Type, type Static } from '@sinclair/typebox'
import { DEFAULT_PRESENCE_CLIENT_ID, PRESENCE_CLIENT_ID_PATTERN, PRESENCE_TTL_MS, PresenceStates, type AvatarResolver, type TicketPresence as TicketPresenceEntity } from '@helpdesk/core'
import { Person } from '../common.js'
import { presentPerson } from '../people.js'

const State = Type.Union(PresenceStates.map((state) => Type.Literal(state)), { description: '`viewing` the ticket, or `typing` a reply or note on it.' })

const ClientId = Type.String({
  pattern: PRESENCE_CLIENT_ID_PATTERN,
  description: `Which tab (or other client) of yours this is: an opaque id you choose (1-64 letters, digits, \`-\`, \`_\`; the console sends a random one per browser tab). Presence is kept per tab: leaving from one tab keeps you present while another still beats. Without it, \`${DEFAULT_PRESENCE_CLIENT_ID}\`: one presence per person.`,
  examples: ['k3v9x2m4q8']
})

export const PresenceEntry = Type.Object({
  user: Person,
  state: State,
  since: Type.String({ description: 'When this stay on the ticket began (UTC `YYYY-MM-DD HH:MM:SS`).' }),
  expires_at: Type.String({ description: 'When the person drops out unless they beat again (UTC).' })
}, { description: 'One person, whatever number of tabs they have on the ticket: `typing` when any of their tabs is, `expires_at` of their latest beat.' })

export const TicketPresence = Type.Object({
  ticket_id: Type.Integer(),
  now: Type.String({ description: 'The server\'s time when the list was read (UTC): compare `expires_at` with it, not with your own clock.' }),
  ttl_seconds: Type.Integer({ description: 'How long one heartbeat keeps someone present.' }),
  entries: Type.Array(PresenceEntry, { description: 'The other members of staff on the ticket (never the caller), the longest present first.' })
}, { description: 'Who else is viewing or typing on a ticket (staff only; collision detection).' })

export const PresenceBeat = Type.Object({
  state: State,
  client_id: Type.Optional(ClientId)
}, { examples: [{ state: 'viewing' }, { state: 'typing', client_id: 'k3v9x2m4q8' }] })

export const PresenceLeaveQuery = Type.Object({
  client_id: Type.Optional(ClientId)
})

export const TicketPresenceParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) })

/** The presence of a ticket, as the API and the `presence` stream event show it. */
export function presentTicketPresence (presence: TicketPresenceEntity, avatar: AvatarResolver): Static<typeof TicketPresence> {
  return {
    ticket_id: presence.ticket_id,
    now: presence.now,
    ttl_seconds: PRESENCE_TTL_MS / 1000,
    entries: presence.entries.map((entry) => ({ user: presentPerson(entry.user, avatar), state: entry.state, since: entry.since, expires_at: entry.expires_at }))
  }
}
