import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction, useAsync, useOrderedList } from '../hooks.js'
import { loadCategories } from '../data.js'
import { Field, ErrorBanner, Loading, PageHeader, StatusMessage } from '../components/ui.js'
import { SortableRows } from '../components/Sortable.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { Category } from '../types.js'

function CategoryForm ({ category, onSaved, onCancel }: { category?: Category, onSaved: () => void, onCancel?: () => void }) {
  const [name, setName] = useState(category?.name ?? '')
  const [verification, setVerification] = useState(String(category?.purchase_verification ?? 0))
  const save = useAction(async () => {
    const body = { name, purchase_verification: Number(verification) }
    if (category === undefined) await api.post('/categories', body)
    else await api.patch(`/categories/${category.id}`, body)
    if (category === undefined) { setName(''); setVerification('0') }
    onSaved()
  })
  const title = category === undefined ? t('categories.create') : t('categories.editTitle', { name: category.name })
  return (
    <form class="panel" aria-label={title} onSubmit={(e) => { e.preventDefault(); void save.run() }} noValidate>
      <h2>{title}</h2>
      <ErrorBanner error={save.error} />
      <Field label={t('categories.name')} name="name" value={name} onValue={setName} error={save.error} required />
      <Field label={t('categories.verification')} name="purchase_verification" value={verification} onValue={setVerification} error={save.error}
        options={[0, 1, 2].map((v) => ({ value: String(v), label: t(`categories.verification.${v}` as MessageKey) }))} />
      <div class="row-actions">
        <button type="submit" class="primary" disabled={save.pending}>{category === undefined ? t('common.create') : t('common.save')}</button>
        {onCancel !== undefined ? <button type="button" onClick={onCancel}>{t('common.cancel')}</button> : null}
      </div>
    </form>
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
      <ErrorBanner error={categories.error ?? order.error ?? remove.error} />
      {done !== '' ? <StatusMessage message={done} /> : null}
      {categories.data === undefined ? <Loading /> : null}
      <p class="hint">{t('common.dragHint')}</p>
      <table class="data-table" aria-label={t('categories.title')}>
        <thead><tr><th scope="col"><span class="visually-hidden">{t('categories.order')}</span></th><th scope="col">{t('categories.name')}</th><th scope="col">{t('categories.verification')}</th><th scope="col">{t('common.actions')}</th><th scope="col">{t('categories.order')}</th></tr></thead>
        <tbody>
          <SortableRows items={list} onReorder={(ids) => { void order.run(ids) }} render={(c) => (
            <>
              <td>{c.name}</td>
              <td>{t(`categories.verification.${c.purchase_verification}` as MessageKey)}</td>
              <td><div class="row-actions">
                <button type="button" onClick={() => { setEditing(c.id) }}>{t('common.edit')}<span class="visually-hidden"> {c.name}</span></button>
                <button type="button" class="danger" onClick={() => { void remove.run(c) }}>{t('common.delete')}<span class="visually-hidden"> {c.name}</span></button>
              </div></td>
            </>
          )} />
        </tbody>
      </table>
      {current !== undefined
        ? <CategoryForm key={current.id} category={current} onSaved={saved} onCancel={() => { setEditing(null) }} />
        : <CategoryForm onSaved={saved} />}
    </section>
  )
}
