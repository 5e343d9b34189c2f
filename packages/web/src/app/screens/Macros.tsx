import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync, useDeletableList } from '../hooks.js'
import { useSession } from '../session.js'
import { loadAgents } from '../data.js'
import { Field, PageHeader, Checkbox, ListStatus, EditDeleteActions, EditorForm, personName } from '../components/ui.js'
import { PRIORITIES, priorityLabel, tagNamesFrom } from '../components/TicketLabels.js'
import { describeMacro, type Macro, type MacroAction } from '../components/MacroPicker.js'
import { t } from '../../messages/index.js'

/** The form's view of a macro's actions; actions it has no control for (custom fields, category, privacy) are kept as they are. */
interface MacroDraft {
  status: string
  priority: string
  addTags: string
  removeTags: string
  assign: string
  reply: string
  note: string
  others: MacroAction[]
}

function draftOf (actions: MacroAction[]): MacroDraft {
  const draft: MacroDraft = { status: '', priority: '', addTags: '', removeTags: '', assign: '', reply: '', note: '', others: [] }
  for (const action of actions) {
    if (action.type === 'set_status') draft.status = String(action.value)
    else if (action.type === 'set_priority') draft.priority = String(action.value)
    else if (action.type === 'add_tags') draft.addTags = (action.value as string[]).join(', ')
    else if (action.type === 'remove_tags') draft.removeTags = (action.value as string[]).join(', ')
    else if (action.type === 'assign') draft.assign = action.value === null ? 'none' : String(action.value)
    else if (action.type === 'reply') draft.reply = action.body ?? ''
    else if (action.type === 'add_note') draft.note = action.body ?? ''
    else draft.others.push(action)
  }
  return draft
}

function actionsOf (draft: MacroDraft): MacroAction[] {
  const actions: MacroAction[] = []
  if (draft.status !== '') actions.push({ type: 'set_status', value: Number(draft.status) })
  if (draft.priority !== '') actions.push({ type: 'set_priority', value: draft.priority })
  const added = tagNamesFrom(draft.addTags)
  if (added.length > 0) actions.push({ type: 'add_tags', value: added })
  const removed = tagNamesFrom(draft.removeTags)
  if (removed.length > 0) actions.push({ type: 'remove_tags', value: removed })
  if (draft.assign !== '') actions.push({ type: 'assign', value: draft.assign === 'none' ? null : Number(draft.assign) })
  actions.push(...draft.others)
  if (draft.reply.trim() !== '') actions.push({ type: 'reply', body: draft.reply })
  if (draft.note.trim() !== '') actions.push({ type: 'add_note', body: draft.note })
  return actions
}

function MacroForm ({ macro, onSaved, onCancel }: { macro?: Macro, onSaved: () => void, onCancel?: () => void }) {
  const { user } = useSession()
  const isAdmin = user?.type === 'admin'
  const [name, setName] = useState(macro?.name ?? '')
  const [shared, setShared] = useState(macro?.shared ?? false)
  const [draft, setDraft] = useState<MacroDraft>(draftOf(macro?.actions ?? []))
  const agents = useAsync(async () => isAdmin ? await loadAgents() : [], [isAdmin])
  const set = (key: keyof Omit<MacroDraft, 'others'>) => (value: string) => { setDraft({ ...draft, [key]: value }) }
  const save = useAction(async () => {
    await api.save('/macros', macro, { name, shared, actions: actionsOf(draft) })
    if (macro === undefined) { setName(''); setShared(false); setDraft(draftOf([])) }
    onSaved()
  })
  const heading = macro === undefined ? t('macros.create') : t('macros.editTitle', { name: macro.name })
  const assignees = [
    { value: '', label: t('macros.unchanged') },
    { value: 'none', label: t('inbox.unassigned') },
    ...(user !== undefined && user !== null ? [{ value: String(user.id), label: t('macros.assignMe') }] : []),
    ...(agents.data ?? []).filter((a) => a.id !== user?.id).map((a) => ({ value: String(a.id), label: personName(a) }))
  ]
  return (
    <EditorForm heading={heading} creating={macro === undefined} save={save} onCancel={onCancel}>
      <Field label={t('macros.name')} name="name" value={name} onValue={setName} error={save.error} required />
      {isAdmin ? <Checkbox label={t('macros.shared')} name="shared" checked={shared} onChange={setShared} /> : null}
      <Field label={t('macros.reply')} name="reply" value={draft.reply} onValue={set('reply')} multiline hint={t('canned.placeholdersHint')} />
      <Field label={t('macros.note')} name="note" value={draft.note} onValue={set('note')} multiline />
      <Field label={t('ticket.status')} name="macro-status" value={draft.status} onValue={set('status')} options={[
        { value: '', label: t('macros.unchanged') },
        { value: '1', label: t('ticket.status.open') },
        { value: '2', label: t('ticket.status.pending') },
        { value: '3', label: t('ticket.status.closed') }
      ]} />
      <Field label={t('ticket.priority')} name="macro-priority" value={draft.priority} onValue={set('priority')}
        options={[{ value: '', label: t('macros.unchanged') }, ...PRIORITIES.map((p) => ({ value: p, label: priorityLabel(p) }))]} />
      <Field label={t('macros.addTags')} name="add-tags" value={draft.addTags} onValue={set('addTags')} placeholder={t('tags.placeholder')} />
      <Field label={t('macros.removeTags')} name="remove-tags" value={draft.removeTags} onValue={set('removeTags')} />
      <Field label={t('ticket.assignee')} name="macro-assign" value={draft.assign} onValue={set('assign')} options={assignees} />
      {draft.others.length > 0 ? <p class="muted">{t('macros.otherActions', { list: describeMacro({ actions: draft.others }) })}</p> : null}
      {save.error?.fieldError('actions') !== undefined ? <p class="error" role="alert">{save.error.fieldError('actions')}</p> : null}
    </EditorForm>
  )
}

export default function Macros () {
  const { user } = useSession()
  const macros = useAsync(async () => await api.get<Page<Macro>>('/macros', { per_page: 100 }), [])
  const [editing, setEditing] = useState<number | null>(null)
  const { done, setDone, remove } = useDeletableList<Macro>({ path: '/macros', nameOf: (m) => m.name, reload: macros.reload })
  const saved = () => { setEditing(null); setDone(t('common.saved')); macros.reload() }
  const current = macros.data?.data.find((m) => m.id === editing)
  const mayManage = (macro: Macro) => macro.shared ? user?.type === 'admin' : macro.user_id === user?.id
  return (
    <section>
      <PageHeader title={t('macros.title')} />
      <p class="hint">{t('macros.intro')}</p>
      <ListStatus error={macros.error ?? remove.error} done={done} loading={macros.data === undefined} />
      {macros.data !== undefined && macros.data.data.length === 0 ? <p class="muted">{t('macros.empty')}</p> : null}
      <ul class="card-list" aria-label={t('macros.title')}>
        {(macros.data?.data ?? []).map((m) => (
          <li key={m.id} class="card">
            <h2>{m.name} {m.shared ? <span class="badge">{t('canned.globalBadge')}</span> : null}</h2>
            <p>{describeMacro(m)}</p>
            {mayManage(m) ? <EditDeleteActions name={m.name} onEdit={() => { setEditing(m.id) }} onDelete={() => { void remove.run(m) }} /> : null}
          </li>
        ))}
      </ul>
      {current !== undefined
        ? <MacroForm key={current.id} macro={current} onSaved={saved} onCancel={() => { setEditing(null) }} />
        : <MacroForm key="new" onSaved={saved} />}
    </section>
  )
}
