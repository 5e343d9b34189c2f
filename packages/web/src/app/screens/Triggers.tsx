import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync, useDeletableList } from '../hooks.js'
import { Checkbox, EditDeleteActions, EditorForm, ErrorBanner, Field, ListStatus, PageHeader } from '../components/ui.js'
import { SortableTable } from '../components/Sortable.js'
import { ActionRows, ConditionRows, fromAction, fromCondition, toAction, toCondition, type ActionRow, type ConditionRow } from '../components/RuleBuilder.js'
import { t } from '../../messages/index.js'

interface RuleCondition { field: string, operator: string, value?: unknown }
export interface Trigger {
  id: number
  name: string
  position: number
  active: boolean
  events: string[]
  conditions: { all?: RuleCondition[], any?: RuleCondition[] }
  actions: Array<Record<string, unknown>>
}
interface DryRun { evaluated: number, matches: Array<{ ticket_id: number, title: string, changes: Array<{ field: string, from: unknown, to: unknown }> }> }

const EVENTS = ['ticket.created', 'ticket.updated', 'comment.customer', 'comment.staff'] as const

function TriggerForm ({ trigger, onSaved, onCancel }: { trigger?: Trigger, onSaved: () => void, onCancel?: () => void }) {
  const [name, setName] = useState(trigger?.name ?? '')
  const [active, setActive] = useState(trigger?.active ?? true)
  const [events, setEvents] = useState<string[]>(trigger?.events ?? ['ticket.created'])
  const [all, setAll] = useState<ConditionRow[]>((trigger?.conditions.all ?? []).map(fromCondition))
  const [any, setAny] = useState<ConditionRow[]>((trigger?.conditions.any ?? []).map(fromCondition))
  const [actions, setActions] = useState<ActionRow[]>(trigger !== undefined ? trigger.actions.map(fromAction) : [{ type: 'add_tags', value: '' }])
  const [preview, setPreview] = useState<DryRun | null>(null)
  const conditions = () => ({ all: all.map(toCondition), any: any.map(toCondition) })
  const save = useAction(async () => {
    await api.save('/triggers', trigger, { name, active, events, conditions: conditions(), actions: actions.map(toAction) })
    onSaved()
  })
  const dryRun = useAction(async () => {
    setPreview((await api.post<{ data: DryRun }>('/triggers/dry-run', { conditions: conditions(), actions: actions.map(toAction) })).data)
  })
  const heading = trigger === undefined ? t('triggers.create') : t('triggers.editTitle', { name: trigger.name })
  return (
    <EditorForm heading={heading} creating={trigger === undefined} save={save} onCancel={onCancel}>
      <Field label={t('triggers.name')} name="name" value={name} onValue={setName} error={save.error} required />
      <Checkbox label={t('triggers.active')} name="active" checked={active} onChange={setActive} />
      <fieldset class="rule-rows">
        <legend>{t('triggers.events')}</legend>
        {EVENTS.map((event) => (
          <Checkbox key={event} label={t(`triggers.event.${event}` as 'triggers.event.ticket.created')} checked={events.includes(event)}
            onChange={(on) => { setEvents(on ? [...events, event] : events.filter((e) => e !== event)) }} />
        ))}
      </fieldset>
      <ConditionRows legend={t('rules.all')} rows={all} onRows={setAll} />
      <ConditionRows legend={t('rules.any')} rows={any} onRows={setAny} />
      <ActionRows rows={actions} onRows={setActions} />
      <div class="row-actions">
        <button type="button" onClick={() => { void dryRun.run() }} disabled={dryRun.pending}>{t('triggers.dryRun')}</button>
      </div>
      <ErrorBanner error={dryRun.error} />
      {preview !== null
        ? (
          <div class="panel" role="status">
            <p>{t('triggers.dryRunResult', { matched: preview.matches.length, evaluated: preview.evaluated })}</p>
            <ul>
              {preview.matches.map((match) => (
                <li key={match.ticket_id}>#{match.ticket_id} {match.title}{match.changes.length > 0 ? `: ${match.changes.map((c) => `${c.field} ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`).join('; ')}` : ''}</li>
              ))}
            </ul>
          </div>
          )
        : null}
    </EditorForm>
  )
}

export default function Triggers () {
  const triggers = useAsync(async () => await api.get<Page<Trigger>>('/triggers', { per_page: 100 }), [])
  const [editing, setEditing] = useState<number | null>(null)
  const { done, setDone, remove } = useDeletableList<Trigger>({ path: '/triggers', nameOf: (x) => x.name, reload: triggers.reload })
  const reorder = useAction(async (ids: number[]) => { await api.put('/triggers/order', { ids }); triggers.reload() })
  const saved = () => { setEditing(null); setDone(t('common.saved')); triggers.reload() }
  const items = triggers.data?.data ?? []
  const current = items.find((x) => x.id === editing)
  return (
    <section>
      <PageHeader title={t('triggers.title')} />
      <p>{t('triggers.intro')}</p>
      <ListStatus error={triggers.error ?? remove.error ?? reorder.error} done={done} loading={triggers.data === undefined} />
      <SortableTable
        label={t('triggers.title')}
        columns={[t('triggers.name'), t('triggers.events'), t('triggers.active'), '']}
        items={items}
        onReorder={(ids) => { void reorder.run(ids) }}
        render={(x) => (
          <>
            <td>{x.name}</td>
            <td>{x.events.join(', ')}</td>
            <td>{x.active ? t('triggers.on') : t('triggers.off')}</td>
            <td><EditDeleteActions name={x.name} onEdit={() => { setEditing(x.id) }} onDelete={() => { void remove.run(x) }} /></td>
          </>
        )}
      />
      {current !== undefined
        ? <TriggerForm key={current.id} trigger={current} onSaved={saved} onCancel={() => { setEditing(null) }} />
        : <TriggerForm key="new" onSaved={saved} />}
    </section>
  )
}
