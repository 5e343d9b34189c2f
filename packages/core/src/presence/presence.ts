import type { DateTimeString } from '../time.js'
import type { PersonSummary } from '../users/user.js'

/** What a member of staff is doing on a ticket: reading it, or writing a reply or note. */
export const PresenceStates = ['viewing', 'typing'] as const
export type PresenceState = typeof PresenceStates[number]

export function isPresenceState (value: unknown): value is PresenceState {
  return typeof value === 'string' && (PresenceStates as readonly string[]).includes(value)
}

/**
 * Which browser tab (or other client) of a person a heartbeat comes from:
 * presence is kept per tab, so closing one of two tabs on a ticket leaves
 * the person present through the other. A short opaque string the client
 * chooses (the console: a random id per tab); API clients that send none
 * share `DEFAULT_PRESENCE_CLIENT_ID`, one presence per person as before.
 */
export const DEFAULT_PRESENCE_CLIENT_ID = 'default'
export const PRESENCE_CLIENT_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$'
const CLIENT_ID = new RegExp(PRESENCE_CLIENT_ID_PATTERN)

export function isPresenceClientId (value: unknown): value is string {
  return typeof value === 'string' && CLIENT_ID.test(value)
}

/**
 * How long a heartbeat keeps someone present: a tab that stops beating (closed,
 * asleep, offline) drops out on its own this long after its last beat. The
 * console beats every 10 s, so two beats may be lost before it does.
 */
export const PRESENCE_TTL_MS = 30_000

/**
 * One person present on one ticket, until `expires_at` unless they beat again:
 * the sum of their tabs (`typing` when any tab is, the earliest `since` and
 * the latest `expires_at` of their live tabs).
 */
export interface PresenceEntry {
  ticket_id: number
  user: PersonSummary
  state: PresenceState
  /** When they started being present (this stay). */
  since: DateTimeString
  expires_at: DateTimeString
}

/** Who is on a ticket now (those of `entries` not expired at `now`), as the API and the stream show it. */
export interface TicketPresence {
  ticket_id: number
  /** The server's time when the list was read: `expires_at` is relative to it (clients with a skewed clock compare against it). */
  now: DateTimeString
  entries: PresenceEntry[]
}
