import { Type, type Static } from '@sinclair/typebox'
import type { ActorInput, AuditEntry as Entry, AvatarResolver, WithIncludes } from '@helpdesk/core'
import { DateTime, EmbeddedPerson, Nullable } from '../common.js'
import { presentEmbeddedPerson } from '../people.js'
import { RecordedActor } from '../history/history-schemas.js'

const Snapshot = Type.Unknown({ description: 'The subject as JSON, secrets replaced by `[redacted]`; null when there is none (created, deleted).' })

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  action: Type.String({ description: '`<subject>.<verb>`: `agent.updated`, `category.created`, `webhook.secret_rotated`, `token.revoked`, `auth.sign_in_failed`, `settings.updated`...' }),
  actor: RecordedActor,
  ip: Nullable(Type.String({ description: 'The client\'s address, when known.' })),
  subject_type: Type.String(),
  subject_id: Nullable(Type.String()),
  before: Snapshot,
  after: Snapshot,
  created_at: DateTime,
  user: Type.Optional(Nullable(EmbeddedPerson))
}, {
  examples: [{
    id: 41, action: 'category.updated', actor: { kind: 'person', user_id: 1, name: null }, ip: '203.0.113.7', subject_type: 'category', subject_id: '3',
    before: { id: 3, name: 'Billing' }, after: { id: 3, name: 'Invoices' }, created_at: '2026-01-31 14:05:00'
  }]
})

/** The audit-log settings (`GET/PATCH /settings`), as properties of the settings object. */
export const AuditSettings = {
  'audit.retention_days': Type.Integer({ minimum: 1, maximum: 3650, description: 'Days the audit log keeps its entries; a daily job removes older ones. Default 365.' })
}

export function presentAuditEntry (entry: WithIncludes<Entry>, avatar: AvatarResolver, viewer: ActorInput): Static<typeof AuditEntry> {
  return {
    id: entry.id,
    action: entry.action,
    actor: { kind: entry.actor_kind, user_id: entry.actor_id, name: entry.actor_name },
    ip: entry.ip,
    subject_type: entry.subject_type,
    subject_id: entry.subject_id,
    before: entry.before,
    after: entry.after,
    created_at: entry.created_at,
    ...('user' in entry ? { user: presentEmbeddedPerson(entry.user, avatar, viewer) } : {})
  }
}
