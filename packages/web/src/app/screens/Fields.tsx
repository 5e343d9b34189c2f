import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync, useDeletableList } from '../hooks.js'
import { loadCategories } from '../data.js'
import { Field, Loading, PageHeader, Checkbox, ListStatus, EditDeleteActions, EditorForm } from '../components/ui.js'
import { t, type MessageKey } from '../../messages/index.js'
import type { Category, CustomField } from '../types.js'
import { useCellLabels } from '../components/cell-labels.js'

const types = ['text', 'text-area', 'select-box'] as const

function FieldForm ({ field, categories, assigned, onSaved, onCancel }: { field?: CustomField, categories: Category[], assigned: number[], onSaved: () => void, onCancel?: () => void }) {
  const [title, setTitle] = useState(field?.title ?? '')
  const [type, setType] = useState<string>(field?.type ?? 'text')
  const [options, setOptions] = useState((field?.meta ?? []).join('\n'))
  const [required, setRequired] = useState(field?.required ?? false)
  const [description, setDescription] = useState(field?.description ?? '')
  const [placeholder, setPlaceholder] = useState(field?.placeholder ?? '')
  const [chosen, setChosen] = useState<number[]>(assigned)
  const save = useAction(async () => {
    const body = {
      title, type, required, categories: chosen,
      ...(description !== '' ? { description } : {}),
      ...(placeholder !== '' ? { placeholder } : {}),
      ...(type === 'select-box' ? { options: options.split('\n').map((o) => o.trim()).filter((o) => o !== '') } : {})
    }
    await api.save('/fields', field, body)
    if (field === undefined) { setTitle(''); setOptions(''); setRequired(false); setDescription(''); setPlaceholder(''); setChosen([]) }
    onSaved()
  })
  const heading = field === undefined ? t('fields.create') : t('fields.editTitle', { name: field.title })
  return (
    <EditorForm heading={heading} creating={field === undefined} save={save} onCancel={onCancel}>
      <Field label={t('fields.fieldTitle')} name="title" value={title} onValue={setTitle} error={save.error} maxLength={100} required />
      <Field label={t('fields.type')} name="type" value={type} onValue={setType} error={save.error} options={types.map((v) => ({ value: v, label: t(`fields.type.${v}` as MessageKey) }))} />
      {type === 'select-box' ? <Field label={t('fields.options')} name="options" value={options} onValue={setOptions} error={save.error} multiline hint={t('fields.optionsHint')} required /> : null}
      <Field label={t('fields.description')} name="description" value={description} onValue={setDescription} error={save.error} maxLength={250} />
      <Field label={t('fields.placeholder')} name="placeholder" value={placeholder} onValue={setPlaceholder} error={save.error} maxLength={100} />
      <Checkbox label={t('fields.required')} name="required" checked={required} onChange={setRequired} />
      <fieldset>
        <legend>{t('fields.categories')}</legend>
        {categories.map((c) => <Checkbox key={c.id} label={c.name} checked={chosen.includes(c.id)} onChange={(value) => { setChosen(value ? [...chosen, c.id] : chosen.filter((id) => id !== c.id)) }} />)}
      </fieldset>
    </EditorForm>
  )
}

export default function Fields () {
  const cellLabels = useCellLabels()
  const fields = useAsync(async () => await api.get<Page<CustomField>>('/fields', { include: ['categories-count'], per_page: 100 }), [])
  const categories = useAsync(async () => await loadCategories(true), [])
  const [editing, setEditing] = useState<number | null>(null)
  const { done, setDone, remove } = useDeletableList<CustomField>({ path: '/fields', nameOf: (f) => f.title, reload: fields.reload })
  const saved = () => { setEditing(null); setDone(t('common.saved')); fields.reload(); categories.reload() }
  const current = fields.data?.data.find((f) => f.id === editing)
  const assignedTo = (id: number) => (categories.data ?? []).filter((c) => (c.fields ?? []).some((f) => f.id === id)).map((c) => c.id)
  return (
    <section>
      <PageHeader title={t('fields.title')} />
      <ListStatus error={fields.error ?? remove.error} done={done} loading={fields.data === undefined} />
      <table class="data-table" aria-label={t('fields.title')} ref={cellLabels}>
        <thead><tr><th scope="col">{t('fields.fieldTitle')}</th><th scope="col">{t('fields.type')}</th><th scope="col">{t('fields.required')}</th><th scope="col">{t('fields.categories')}</th><th scope="col">{t('common.actions')}</th></tr></thead>
        <tbody>
          {(fields.data?.data ?? []).map((f) => (
            <tr key={f.id}>
              <td>{f.title}</td>
              <td>{t(`fields.type.${f.type}` as MessageKey)}</td>
              <td>{f.required ? t('common.yes') : t('common.no')}</td>
              <td>{f.categories_count ?? ''}</td>
              <td><EditDeleteActions name={f.title} onEdit={() => { setEditing(f.id) }} onDelete={() => { void remove.run(f) }} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      {categories.data === undefined
        ? <Loading />
        : current !== undefined
          ? <FieldForm key={current.id} field={current} categories={categories.data} assigned={assignedTo(current.id)} onSaved={saved} onCancel={() => { setEditing(null) }} />
          : <FieldForm key="new" categories={categories.data} assigned={[]} onSaved={saved} />}
    </section>
  )
}
