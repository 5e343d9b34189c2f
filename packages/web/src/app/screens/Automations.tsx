import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync, useDeletableList } from '../hooks.js'
import { Checkbox, EditDeleteActions, EditorForm, Field, ListStatus, PageHeader } from '../components/ui.js'
import { ActionRows, ConditionRows, fromAction, fromCondition, toAction, toCondition, type ActionRow, type ConditionRow } from '../components/RuleBuilder.js'
import { t } from '../../messages/index.js'

interface Automation {
  id: number
  name: string
  active: boolean
  time_condition: { anchor: string, hours: number, business?: boolean }
  conditions: { all?: Array<{ field: string, operator: string, value?: unknown }> }
  actions: Array<Record<string, unknown>>
}

const ANCHORS = ['status_changed', 'created', 'updated', 'assigned'] as const

function AutomationForm ({ automation, onSaved, onCancel }: { automation?: Automation, onSaved: () => void, onCancel?: () => void }) {
  const [name, setName] = useState(automation?.name ?? '')
  const [active, setActive] = useState(automation?.active ?? true)
  const [anchor, setAnchor] = useState(automation?.time_condition.anchor ?? 'status_changed')
  const [hours, setHours] = useState(String(automation?.time_condition.hours ?? 168))
  const [all, setAll] = useState<ConditionRow[]>((automation?.conditions.all ?? [{ field: 'status', operator: 'is', value: 2 }]).map(fromCondition))
  const [actions, setActions] = useState<ActionRow[]>(automation !== undefined ? automation.actions.map(fromAction) : [{ type: 'set_status', value: '3' }])
  const save = useAction(async () => {
    await api.save('/automations', automation, { name, active, time_condition: { anchor, hours: Number(hours) }, conditions: { all: all.map(toCondition) }, actions: actions.map(toAction) })
    onSaved()
  })
  const heading = automation === undefined ? t('automations.create') : t('automations.editTitle', { name: automation.name })
  return (
    <EditorForm heading={heading} creating={automation === undefined} save={save} onCancel={onCancel}>
      <Field label={t('automations.name')} name="name" value={name} onValue={setName} error={save.error} required />
      <Checkbox label={t('automations.active')} name="active" checked={active} onChange={setActive} />
      <Field label={t('automations.anchor')} name="time_condition.anchor" value={anchor} onValue={setAnchor} error={save.error} options={ANCHORS.map((a) => ({ value: a, label: t(`automations.anchor.${a}` as 'automations.anchor.created') }))} />
      <Field label={t('automations.hours')} name="time_condition.hours" type="number" value={hours} onValue={setHours} error={save.error} hint={t('automations.hoursHint')} required />
      <ConditionRows legend={t('rules.all')} rows={all} onRows={setAll} />
      <ActionRows rows={actions} onRows={setActions} />
    </EditorForm>
  )
}

export default function Automations () {
  const automations = useAsync(async () => await api.get<Page<Automation>>('/automations', { per_page: 100 }), [])
  const [editing, setEditing] = useState<number | null>(null)
  const { done, setDone, remove } = useDeletableList<Automation>({ path: '/automations', nameOf: (x) => x.name, reload: automations.reload })
  const saved = () => { setEditing(null); setDone(t('common.saved')); automations.reload() }
  const current = automations.data?.data.find((x) => x.id === editing)
  return (
    <section>
      <PageHeader title={t('automations.title')} />
      <p>{t('automations.intro')}</p>
      <ListStatus error={automations.error ?? remove.error} done={done} loading={automations.data === undefined} />
      <ul class="card-list" aria-label={t('automations.title')}>
        {(automations.data?.data ?? []).map((x) => (
          <li key={x.id} class="card">
            <h2>{x.name} {x.active ? null : <span class="badge">{t('triggers.off')}</span>}</h2>
            <p>{t('automations.summary', { anchor: x.time_condition.anchor, hours: x.time_condition.hours })}</p>
            <EditDeleteActions name={x.name} onEdit={() => { setEditing(x.id) }} onDelete={() => { void remove.run(x) }} />
          </li>
        ))}
      </ul>
      {current !== undefined
        ? <AutomationForm key={current.id} automation={current} onSaved={saved} onCancel={() => { setEditing(null) }} />
        : <AutomationForm key="new" onSaved={saved} />}
    </section>
  )
}
