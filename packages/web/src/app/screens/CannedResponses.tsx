import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync, useDeletableList } from '../hooks.js'
import { Field, PageHeader, Checkbox, ListStatus, EditDeleteActions, EditorForm } from '../components/ui.js'
import { t } from '../../messages/index.js'
import type { CannedResponse } from '../types.js'
import { Prose } from '../components/Prose.js'

function CannedForm ({ response, onSaved, onCancel }: { response?: CannedResponse, onSaved: () => void, onCancel?: () => void }) {
  const [name, setName] = useState(response?.name ?? '')
  const [body, setBody] = useState(response?.body ?? '')
  const [global, setGlobal] = useState(response?.global ?? false)
  const save = useAction(async () => {
    await api.save('/canned-responses', response, { name, body, global })
    if (response === undefined) { setName(''); setBody(''); setGlobal(false) }
    onSaved()
  })
  const heading = response === undefined ? t('canned.create') : t('canned.editTitle', { name: response.name })
  return (
    <EditorForm heading={heading} creating={response === undefined} save={save} onCancel={onCancel}>
      <Field label={t('canned.name')} name="name" value={name} onValue={setName} error={save.error} required />
      <Field label={t('canned.body')} name="body" value={body} onValue={setBody} error={save.error} multiline hint={t('canned.placeholdersHint')} required />
      <Checkbox label={t('canned.global')} name="global" checked={global} onChange={setGlobal} />
    </EditorForm>
  )
}

export default function CannedResponses () {
  const [search, setSearch] = useState('')
  const [applied, setApplied] = useState('')
  const responses = useAsync(async () => await api.get<Page<CannedResponse>>('/canned-responses', { filter: { content: applied }, per_page: 100 }), [applied])
  const [editing, setEditing] = useState<number | null>(null)
  const { done, setDone, remove } = useDeletableList<CannedResponse>({ path: '/canned-responses', nameOf: (r) => r.name, reload: responses.reload })
  const saved = () => { setEditing(null); setDone(t('common.saved')); responses.reload() }
  const current = responses.data?.data.find((r) => r.id === editing)
  return (
    <section>
      <PageHeader title={t('canned.title')} />
      {/* biome-ignore lint/a11y/useSemanticElements: role="search" on the form is the landmark every screen reader knows; a <search> wrapper would change the page's markup */}
      <form class="filters" role="search" aria-label={t('canned.search')} onSubmit={(e) => { e.preventDefault(); setApplied(search.trim()) }}>
        <Field label={t('canned.search')} name="search" type="search" value={search} onValue={setSearch} />
        <button type="submit">{t('inbox.searchButton')}</button>
      </form>
      <ListStatus error={responses.error ?? remove.error} done={done} loading={responses.data === undefined} />
      <ul class="card-list" aria-label={t('canned.title')}>
        {(responses.data?.data ?? []).map((r) => (
          <li key={r.id} class="card">
            <h2>{r.name} {r.global ? <span class="badge">{t('canned.globalBadge')}</span> : null}</h2>
            <Prose html={r.body} />
            <EditDeleteActions name={r.name} onEdit={() => { setEditing(r.id) }} onDelete={() => { void remove.run(r) }} />
          </li>
        ))}
      </ul>
      {current !== undefined
        ? <CannedForm key={current.id} response={current} onSaved={saved} onCancel={() => { setEditing(null) }} />
        : <CannedForm key="new" onSaved={saved} />}
    </section>
  )
}
