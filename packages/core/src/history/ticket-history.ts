import { defineList } from '../list/list-spec.js'
import type { DateTimeString } from '../time.js'
import type { ActorInput } from '../users/actor.js'
import { toActor } from '../users/actor.js'

/**
 * The door a change came through: the web console, the API, mail, an
 * import, an automation rule, or the help desk itself (jobs, the CLI, upkeep).
 */
export type HistoryDoor = 'console' | 'api' | 'mail' | 'import' | 'automation' | 'system'

export const HISTORY_DOORS: readonly HistoryDoor[] = ['console', 'api', 'mail', 'import', 'automation', 'system']

/** What kind of actor made a change: a signed-in person, the help desk itself, an automation rule, a mail sender. */
export type HistoryActorKind = 'person' | 'system' | 'automation' | 'mail'

/**
 * Who made a change, as history and the audit log store it: the kind, the
 * user (null for the system and rules, and once the user is deleted) and a
 * name that stays (the automation's or the system's name, the mail's sender).
 */
export interface RecordedActor {
  actor_kind: HistoryActorKind
  actor_id: number | null
  actor_name: string | null
}

/** One change of one field of a ticket. Values are JSON (null when the field had none, or holds no value worth keeping, e.g. `body`). */
export interface TicketHistoryEntry extends RecordedActor {
  id: number
  ticket_id: number
  /** `status`, `assignee`, `category`, `private`, `title`, `body`, `fields.<id>`, `purchase_code`, `satisfaction`, `imported`... */
  field: string
  old_value: unknown
  new_value: unknown
  /** Whether the ticket's owner sees it (status changes). */
  public: boolean
  door: HistoryDoor
  created_at: DateTimeString
}

export type NewTicketHistoryEntry = Omit<TicketHistoryEntry, 'id' | 'created_at'> & { created_at?: DateTimeString }

/** `GET /tickets/{id}/history`: oldest first by default; `user` includes the acting person. */
export const ticketHistoryList = defineList({
  resource: 'ticket-history',
  includes: ['user'],
  sorts: ['id'],
  defaultSort: 'id',
  keyTypes: { id: 'int' },
  partialFilters: [],
  exactFilters: ['field'],
  /** `created_since`: changes at or after a time. */
  sinceFilters: ['created_since']
})

/** Who `input` is, for the record, and the door it acts through. */
export function recordedActor (input: ActorInput): RecordedActor & { door: HistoryDoor } {
  const actor = toActor(input)
  switch (actor.kind) {
    case 'person':
      return { actor_kind: 'person', actor_id: actor.user.id, actor_name: null, door: actor.channel === 'cli' ? 'system' : actor.channel }
    case 'system':
      return { actor_kind: 'system', actor_id: null, actor_name: actor.name, door: actor.name === 'import' ? 'import' : 'system' }
    case 'automation':
      return { actor_kind: 'automation', actor_id: null, actor_name: `${actor.rule.type}:${actor.rule.name}`, door: 'automation' }
    case 'mail':
      return { actor_kind: 'mail', actor_id: actor.verified ? actor.user?.id ?? null : null, actor_name: actor.address, door: 'mail' }
    case 'anonymous':
      return { actor_kind: 'system', actor_id: null, actor_name: 'anonymous', door: 'system' }
  }
}
