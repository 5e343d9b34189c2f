import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAsync } from '../hooks.js'
import { DateTime, Field, ListStatus, PageHeader, Pager, personName } from '../components/ui.js'
import { t } from '../../messages/index.js'
import type { AuditEntry } from '../types.js'


interface Filters { action: string, actor: string, subject_type: string, subject_id: string, from: string, to: string }

const EMPTY: Filters = { action: '', actor: '', subject_type: '', subject_id: '', from: '', to: '' }

function who (entry: AuditEntry): string {
  if (entry.actor.kind === 'person') return personName(entry.user) || `#${entry.actor.user_id ?? '?'}`
  return entry.actor.name ?? entry.actor.kind
}

function json (value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2)
}

/** The administrators' audit log: newest first, filtered by action, actor, subject and dates, each entry's before and after on demand. */
export default function AuditLog () {
  const [draft, setDraft] = useState<Filters>(EMPTY)
  const [filters, setFilters] = useState<Filters>(EMPTY)
  const [cursors, setCursors] = useState<string[]>([''])
  const cursor = cursors[cursors.length - 1] ?? ''
  const list = useAsync(async () => await api.get<Page<AuditEntry>>('/audit-log', {
    per_page: 50,
    cursor,
    include: ['user'],
    filter: {
      action: filters.action.trim(),
      actor: filters.actor.trim(),
      subject_type: filters.subject_type.trim(),
      subject_id: filters.subject_id.trim(),
      created_since: filters.from === '' ? '' : `${filters.from} 00:00:00`,
      created_before: filters.to === '' ? '' : `${filters.to} 23:59:59`
    }
  }), [cursor, filters])
  const set = (key: keyof Filters) => (value: string) => { setDraft({ ...draft, [key]: value }) }
  const entries = list.data?.data ?? []
  return (
    <section>
      <PageHeader title={t('audit.title')} />
      <p class="muted">{t('audit.intro')}</p>
      <form class="audit-filters" onSubmit={(event) => { event.preventDefault(); setCursors(['']); setFilters(draft) }} noValidate>
        <Field label={t('audit.action')} name="action" value={draft.action} onValue={set('action')} placeholder="category.updated" />
        <Field label={t('audit.actor')} name="actor" value={draft.actor} onValue={set('actor')} />
        <Field label={t('audit.subjectType')} name="subject_type" value={draft.subject_type} onValue={set('subject_type')} />
        <Field label={t('audit.subjectId')} name="subject_id" value={draft.subject_id} onValue={set('subject_id')} />
        <Field label={t('audit.from')} name="from" type="date" value={draft.from} onValue={set('from')} />
        <Field label={t('audit.to')} name="to" type="date" value={draft.to} onValue={set('to')} />
        <button type="submit" class="primary">{t('audit.apply')}</button>
      </form>
      <ListStatus error={list.error} done="" loading={list.data === undefined} />
      {list.data !== undefined && entries.length === 0 ? <p class="muted">{t('audit.empty')}</p> : null}
      <table class="audit-table" aria-label={t('audit.title')}>
        <thead>
          <tr><th>{t('audit.when')}</th><th>{t('audit.action')}</th><th>{t('audit.who')}</th><th>{t('audit.subject')}</th><th>{t('audit.ip')}</th><th>{t('audit.changes')}</th></tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-action={entry.action}>
              <td><DateTime value={entry.created_at} /></td>
              <td><code>{entry.action}</code></td>
              <td>{who(entry)}</td>
              <td>{entry.subject_type}{entry.subject_id !== null ? ` #${entry.subject_id}` : ''}</td>
              <td>{entry.ip ?? ''}</td>
              <td>
                {entry.before !== null || entry.after !== null
                  ? (
                    <details>
                      <summary>{t('audit.show')}</summary>
                      {entry.before !== null ? <><h3>{t('audit.before')}</h3><pre>{json(entry.before)}</pre></> : null}
                      {entry.after !== null ? <><h3>{t('audit.after')}</h3><pre>{json(entry.after)}</pre></> : null}
                    </details>
                    )
                  : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager cursors={cursors} onCursors={setCursors} next={list.data?.meta.next_cursor ?? null} />
    </section>
  )
}
