import { recordedActor, type RecordedActor } from '../history/ticket-history.js'
import { defineList } from '../list/list-spec.js'
import type { Store } from '../store.js'
import type { DateTimeString } from '../time.js'
import { toActor, type ActorInput } from '../users/actor.js'

/**
 * What an audit entry says happened: `<subject>.<verb>`, e.g. `agent.updated`,
 * `category.created`, `webhook.secret_rotated`, `token.revoked`,
 * `auth.sign_in_failed`, `settings.updated`, `two_factor.enabled`.
 */
export type AuditAction = string

/** One change to the help desk itself (not to tickets: they have their history). */
export interface AuditEntry extends RecordedActor {
  id: number
  /** The client's address, when the door knew it. */
  ip: string | null
  action: AuditAction
  /** `agent`, `category`, `custom_field`, `canned_response`, `webhook`, `token`, `session`, `settings`, `user`... */
  subject_type: string
  subject_id: string | null
  /** The subject before and after, secrets removed (`redactSecrets`); null when there was none (created, deleted). */
  before: unknown
  after: unknown
  created_at: DateTimeString
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'created_at'>

/**
 * `GET /audit-log`: newest first by default. Filters: `action` (exact, several
 * allowed), `actor` (user ids), `subject_type`, `subject_id`, `created_since`
 * and `created_before` (a time range); sorted by `id` ascending with a cursor
 * and `created_since`, it is an incremental export.
 */
export const auditLogList = defineList({
  resource: 'audit-log',
  includes: ['user'],
  sorts: ['id', 'created_at'],
  defaultSort: '-id',
  keyTypes: { id: 'int', created_at: 'datetime' },
  partialFilters: [],
  exactFilters: ['action', 'actor', 'subject_type', 'subject_id', 'created_before'],
  sinceFilters: ['created_since']
})

/** Days the audit log keeps entries by default (`audit.retention_days`). */
export const AUDIT_RETENTION_DEFAULT_DAYS = 365

/**
 * Key names whose values never reach the log: passwords and their hashes,
 * tokens, webhook and client secrets, TOTP seeds, recovery codes, keys. A key
 * matches when it contains one of these (case-insensitive): `password_hash`,
 * `new_password`, `client_secret`, `token_hash` all do.
 */
export const REDACTED_KEY_PARTS: readonly string[] = [
  'password', 'secret', 'token', 'hash', 'totp', 'seed', 'recovery', 'otp', 'api_key', 'private_key', 'cookie', 'signature', 'credential'
]

export const REDACTED = '[redacted]'

function redactedKey (key: string): boolean {
  const lower = key.toLowerCase()
  return REDACTED_KEY_PARTS.some((part) => lower.includes(part))
}

/** A deep copy of `value` with the value of every secret-named key replaced by `[redacted]` (JSON-safe). */
export function redactSecrets (value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.map(redactSecrets)
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (inner === undefined) continue
      out[key] = redactedKey(key) ? REDACTED : redactSecrets(inner)
    }
    return out
  }
  if (typeof value === 'bigint') return String(value)
  if (typeof value === 'function' || typeof value === 'symbol') return null
  return value
}

/** What to record: the action, its subject, the subject before and after (either may be absent). */
export interface AuditRecord {
  action: AuditAction
  subject_type: string
  subject_id?: number | string | null
  before?: unknown
  after?: unknown
  /** The client's address when the actor does not carry it (a failed sign-in has no signed-in person). */
  ip?: string | null | undefined
}

/** The entry `actor` makes with `record`, secrets removed. */
export function auditEntry (actor: ActorInput, record: AuditRecord): NewAuditEntry {
  const who = recordedActor(actor)
  const acting = toActor(actor)
  return {
    actor_kind: who.actor_kind,
    actor_id: who.actor_id,
    actor_name: who.actor_name,
    ip: record.ip ?? (acting.kind === 'person' ? acting.ip : null),
    action: record.action,
    subject_type: record.subject_type,
    subject_id: record.subject_id === undefined || record.subject_id === null ? null : String(record.subject_id),
    before: redactSecrets(record.before),
    after: redactSecrets(record.after)
  }
}

/**
 * Appends an audit entry through `store`: pass the transaction of the change
 * when there is one, so the entry commits (or rolls back) with it.
 */
export async function audit (store: Store, actor: ActorInput, record: AuditRecord): Promise<void> {
  await store.auditLog.add(auditEntry(actor, record))
}
