import type { DomainEvent } from '../events.js'
import type { Store } from '../store.js'
import { SatisfactionEventType, type SatisfactionRatedEvent } from '../satisfaction/satisfaction.js'
import type { Ticket } from '../tickets/ticket.js'
import type { ActorInput } from '../users/actor.js'
import { recordedActor, type HistoryDoor, type NewTicketHistoryEntry, type RecordedActor } from './ticket-history.js'

/** One field that changed: its name in the history, the values before and after, whether the owner sees it. */
export interface TicketChange { field: string, old_value: unknown, new_value: unknown, public: boolean }

/** Ticket columns recorded under a name of their own; `body` is recorded without its values (they can be long, and the ticket shows it). */
const FIELDS: ReadonlyArray<{ key: string, field: string, public: boolean, values: boolean }> = [
  { key: 'status', field: 'status', public: true, values: true },
  { key: 'assigned_agent_id', field: 'assignee', public: false, values: true },
  { key: 'category_id', field: 'category', public: false, values: true },
  { key: 'private', field: 'private', public: false, values: true },
  { key: 'title', field: 'title', public: false, values: true },
  { key: 'body', field: 'body', public: false, values: false },
  // Columns later issues add (priority, tags) are recorded by adding them here.
  { key: 'priority', field: 'priority', public: false, values: true },
  { key: 'tags', field: 'tags', public: false, values: true },
  // A merge (docs/tickets.md): the owner sees where their ticket went.
  { key: 'merged_into_id', field: 'merged_into', public: true, values: true }
]

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * What changed from `before` to `after`: the ticket's own fields, each
 * custom-field answer (`fields.<id>`) and the purchase code. Pure: the
 * recorder below writes what it returns.
 */
export function ticketChanges (before: Ticket, after: Ticket): TicketChange[] {
  const changes: TicketChange[] = []
  const old = before as unknown as Record<string, unknown>
  const now = after as unknown as Record<string, unknown>
  for (const { key, field, public: isPublic, values } of FIELDS) {
    if (!(key in old) && !(key in now)) continue
    if (same(old[key], now[key])) continue
    changes.push({ field, old_value: values ? old[key] ?? null : null, new_value: values ? now[key] ?? null : null, public: isPublic })
  }
  const oldFields = before.additional?.fields ?? {}
  const newFields = after.additional?.fields ?? {}
  for (const id of [...new Set([...Object.keys(oldFields), ...Object.keys(newFields)])].sort((a, b) => Number(a) - Number(b))) {
    if (same(oldFields[id], newFields[id])) continue
    changes.push({ field: `fields.${id}`, old_value: oldFields[id] ?? null, new_value: newFields[id] ?? null, public: false })
  }
  if (!same(before.additional?.purchase_code, after.additional?.purchase_code)) {
    changes.push({ field: 'purchase_code', old_value: before.additional?.purchase_code ?? null, new_value: after.additional?.purchase_code ?? null, public: false })
  }
  return changes
}

function entries (ticketId: number, who: RecordedActor & { door: HistoryDoor }, changes: readonly TicketChange[]): NewTicketHistoryEntry[] {
  return changes.map((change) => ({ ticket_id: ticketId, ...who, ...change }))
}

/**
 * Records, inside `tx` (the transaction of the change), every field that
 * differs between `before` and `after`, as done by `actor` through its door.
 * Nothing is written when nothing changed.
 */
export async function recordTicketChanges (tx: Store, actor: ActorInput, before: Ticket, after: Ticket, tool?: { type: string, name: string }): Promise<void> {
  const changes = ticketChanges(before, after)
  if (changes.length === 0) return
  const who = recordedActor(actor)
  // A person's change made with a tool (a macro) names the tool beside the person.
  await tx.ticketHistory.add(entries(after.id, tool !== undefined && who.actor_name === null ? { ...who, actor_name: `${tool.type}:${tool.name}` } : who, changes))
}

/** Records arbitrary changes of one ticket (merges and other changes that are not a field of the ticket row). */
export async function recordTicketEntries (tx: Store, actor: ActorInput, ticketId: number, changes: readonly TicketChange[]): Promise<void> {
  if (changes.length > 0) await tx.ticketHistory.add(entries(ticketId, recordedActor(actor), changes))
}

/**
 * The event recorder of changes told by events rather than written by the
 * ticket service: a satisfaction rating (`Tickets.SatisfactionRated`) becomes
 * a `satisfaction` entry by the rating customer, through the rating's door.
 */
export async function recordHistoryOfEvents (tx: Store, event: DomainEvent): Promise<void> {
  if (event.type !== SatisfactionEventType.SatisfactionRated) return
  const rated = event as SatisfactionRatedEvent
  const channel = rated.satisfaction.channel
  await tx.ticketHistory.add([{
    ticket_id: rated.ticket.id,
    actor_kind: 'person',
    actor_id: rated.actor_id,
    actor_name: null,
    door: channel === null || channel === 'cli' ? 'system' : channel,
    field: 'satisfaction',
    old_value: rated.previous,
    new_value: { rating: rated.satisfaction.rating, comment: rated.satisfaction.comment },
    public: false
  }])
}
