import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction, useAsync, useOrderedList } from '../hooks.js'
import { loadCategories } from '../data.js'
import { Field, PageHeader, ListStatus, EditDeleteActions, EditorForm } from '../components/ui.js'
import { SortableTable } from '../components/Sortable.js'
import { CategoryAgents } from '../components/CategoryAgents.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { Category } from '../types.js'

function CategoryForm ({ category, onSaved, onCancel }: { category?: Category, onSaved: () => void, onCancel?: () => void }) {
  const [name, setName] = useState(category?.name ?? '')
  const [verification, setVerification] = useState(String(category?.purchase_verification ?? 0))
  const [agents, setAgents] = useState<number[]>([])
  const save = useAction(async () => {
    await api.save('/categories', category, { name, purchase_verification: Number(verification), ...(category === undefined ? { agents } : {}) })
    if (category === undefined) { setName(''); setVerification('0'); setAgents([]) }
    onSaved()
  })
  const title = category === undefined ? t('categories.create') : t('categories.editTitle', { name: category.name })
  return (
    <EditorForm heading={title} creating={category === undefined} save={save} onCancel={onCancel}>
      <Field label={t('categories.name')} name="name" value={name} onValue={setName} error={save.error} required />
      <Field label={t('categories.verification')} name="purchase_verification" value={verification} onValue={setVerification} error={save.error}
        options={[0, 1, 2].map((v) => ({ value: String(v), label: t(`categories.verification.${v}` as MessageKey) }))} />
      {category === undefined ? <CategoryAgents chosen={agents} onChosen={setAgents} /> : null}
    </EditorForm>
  )
}

export default function Categories () {
  const categories = useAsync(async () => await loadCategories(true), [])
  const [editing, setEditing] = useState<number | null>(null)
  const { done, setDone, order, remove } = useOrderedList<Category>({ path: '/categories', nameOf: (c) => c.name, reload: categories.reload })
  const saved = () => { setEditing(null); setDone(t('common.saved')); categories.reload() }
  const list = categories.data ?? []
  const current = list.find((c) => c.id === editing)
  return (
    <section>
      <PageHeader title={t('categories.title')} />
      <ListStatus error={categories.error ?? order.error ?? remove.error} done={done} loading={categories.data === undefined} />
      <p class="hint">{t('common.dragHint')}</p>
      <SortableTable label={t('categories.title')} columns={[t('categories.name'), t('categories.verification'), t('common.actions')]}
        items={list} onReorder={(ids) => { void order.run(ids) }} render={(c) => (
          <>
            <td>{c.name}</td>
            <td>{t(`categories.verification.${c.purchase_verification}` as MessageKey)}</td>
            <td><EditDeleteActions name={c.name} onEdit={() => { setEditing(c.id) }} onDelete={() => { void remove.run(c) }} /></td>
          </>
        )} />
      {current !== undefined
        ? <CategoryForm key={current.id} category={current} onSaved={saved} onCancel={() => { setEditing(null) }} />
        : <CategoryForm onSaved={saved} />}
    </section>
  )
}
