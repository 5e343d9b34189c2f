import { DateTime, personName, statusLabel } from './ui.js'
import { t } from '../../messages/index.js'
import type { HistoryEntry } from '../types.js'

export type { HistoryEntry }

/** Names the view knows: categories by id, custom fields by id. */
export interface HistoryNames {
  categories: Map<number, string>
  fields: Map<string, string>
}

function shown (value: unknown, field: string, names: HistoryNames): string {
  if (value === null || value === undefined || value === '') return t('history.none')
  if (field === 'status' && typeof value === 'number') return statusLabel(value)
  if (field === 'category' && typeof value === 'number') return names.categories.get(value) ?? `#${value}`
  if (field === 'assignee' && typeof value === 'number') return `#${value}`
  if (field === 'private') return value === true ? t('history.private') : t('history.public')
  if (field === 'satisfaction' && typeof value === 'object') return String((value as { rating?: unknown }).rating ?? '')
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function fieldName (field: string, names: HistoryNames): string {
  if (field.startsWith('fields.')) return names.fields.get(field.slice(7)) ?? field
  const known: Record<string, string> = {
    status: t('history.field.status'),
    assignee: t('history.field.assignee'),
    category: t('history.field.category'),
    private: t('history.field.private'),
    title: t('history.field.title'),
    satisfaction: t('history.field.satisfaction')
  }
  return known[field] ?? field
}

/** Who made a change: the person, or the rule, the help desk itself, a mail's sender. */
export function actorName (entry: HistoryEntry): string {
  if (entry.actor.kind === 'person') return personName(entry.user) || t('history.someone')
  if (entry.actor.kind === 'automation') return t('history.automation', { name: entry.actor.name ?? '' })
  if (entry.actor.kind === 'mail') return entry.actor.name ?? t('history.someone')
  return t('history.system')
}

/** The sentence of one change: "Ada Admin changed Status from Open to Closed (console)". */
export function describeChange (entry: HistoryEntry, names: HistoryNames): string {
  const who = actorName(entry)
  if (entry.field === 'imported') return t('history.imported', { who })
  if (entry.field === 'body') return t('history.bodyChanged', { who, door: entry.door })
  const merge = mergeSentence(entry, who)
  if (merge !== null) return merge
  return t('history.changed', {
    who,
    field: fieldName(entry.field, names),
    from: shown(entry.old_value, entry.field, names),
    to: shown(entry.new_value, entry.field, names),
    door: entry.door
  })
}

/** Merges and splits (docs/tickets.md): the other ticket's number, and how many comments moved. */
function mergeSentence (entry: HistoryEntry, who: string): string | null {
  const value = (entry.new_value ?? entry.old_value) as { id?: number, title?: string, comments?: number } | number | null
  const id = String(typeof value === 'number' ? value : value?.id ?? '')
  const count = String(typeof value === 'object' && value !== null ? value.comments ?? 0 : 0)
  const title = typeof value === 'object' && value !== null ? value.title ?? '' : ''
  const undone = entry.new_value === null
  const door = entry.door
  if (entry.field === 'merged_into') return t(undone ? 'history.unmergedFrom' : 'history.mergedInto', { who, id, door })
  if (entry.field === 'merged_from') return undone ? t('history.unmergedTo', { who, id, door }) : t('history.mergedFrom', { who, id, title, count, door })
  if (entry.field === 'split_to') return t('history.splitTo', { who, id, count, door })
  if (entry.field === 'split_from') return t('history.splitFrom', { who, id, door })
  return null
}

export function HistoryLine ({ entry, names }: { entry: HistoryEntry, names: HistoryNames }) {
  return (
    <p class="history-line" data-field={entry.field}>
      <span>{describeChange(entry, names)}</span>
      <span class="muted"> · <DateTime value={entry.created_at} /></span>
    </p>
  )
}

/**
 * Comments and history entries in one timeline, by time: on the same second a
 * comment comes before the changes it caused (a closing reply, then the status).
 */
export function interleave<C extends { created_at: string }> (comments: readonly C[], entries: readonly HistoryEntry[]): Array<{ comment: C } | { change: HistoryEntry }> {
  const merged: Array<{ comment: C } | { change: HistoryEntry }> = []
  let i = 0
  let j = 0
  while (i < comments.length || j < entries.length) {
    const comment = comments[i]
    const entry = entries[j]
    if (entry === undefined || (comment !== undefined && comment.created_at <= entry.created_at)) {
      merged.push({ comment: comment! })
      i++
    } else {
      merged.push({ change: entry })
      j++
    }
  }
  return merged
}
