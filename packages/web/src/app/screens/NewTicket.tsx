import { useState } from 'preact/hooks'
import { useLocation } from 'wouter-preact'
import { api } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { loadCategories } from '../data.js'
import { textToHtml } from '../text.js'
import { Field, ErrorBanner, Loading, PageHeader } from '../components/ui.js'
import { AttachmentUploader } from '../components/Attachments.js'
import { t } from '../../messages/index.js'
import type { Attachment, Ticket } from '../types.js'

export default function NewTicket () {
  const [, navigate] = useLocation()
  const categories = useAsync(async () => await loadCategories(), [])
  const [categoryId, setCategoryId] = useState('')
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [purchaseCode, setPurchaseCode] = useState('')
  const [answers, setAnswers] = useState<Record<string, string>>({})
  const [files, setFiles] = useState<Attachment[]>([])
  const category = (categories.data ?? []).find((c) => String(c.id) === categoryId)
  const fields = category?.fields ?? []
  const needsCode = (category?.purchase_verification ?? 0) > 0

  const submit = useAction(async () => {
    const filled = Object.fromEntries(fields.map((f) => [String(f.id), answers[String(f.id)] ?? '']).filter(([, v]) => v !== ''))
    const created = await api.post<{ data: Ticket }>('/tickets', {
      category: categoryId === '' ? undefined : Number(categoryId),
      title,
      body: textToHtml(body),
      ...(Object.keys(filled).length > 0 ? { fields: filled } : {}),
      ...(needsCode && purchaseCode !== '' ? { purchase_code: purchaseCode } : {}),
      ...(files.length > 0 ? { attachments: files.map((f) => f.id) } : {})
    })
    navigate(`/portal/tickets/${created.data.id}`)
  })

  if (categories.data === undefined) return categories.error !== undefined ? <ErrorBanner error={categories.error} /> : <Loading />
  return (
    <section class="narrow">
      <PageHeader title={t('newTicket.title')} />
      <form onSubmit={(e) => { e.preventDefault(); void submit.run() }} noValidate>
        <ErrorBanner error={submit.error} />
        <Field label={t('newTicket.category')} name="category" value={categoryId} onValue={setCategoryId} error={submit.error} required
          options={[{ value: '', label: t('newTicket.chooseCategory') }, ...categories.data.map((c) => ({ value: String(c.id), label: c.name }))]} />
        <Field label={t('newTicket.subject')} name="title" value={title} onValue={setTitle} error={submit.error} maxLength={250} required />
        <Field label={t('newTicket.body')} name="body" value={body} onValue={setBody} error={submit.error} multiline required />
        {fields.map((field) => {
          const key = String(field.id)
          const common = { label: field.title, name: `fields.${key}`, value: answers[key] ?? '', onValue: (value: string) => { setAnswers({ ...answers, [key]: value }) }, error: submit.error, hint: field.description, required: field.required }
          if (field.type === 'select-box') return <Field key={key} {...common} options={[{ value: '', label: t('newTicket.choose') }, ...field.meta.map((o) => ({ value: o, label: o }))]} />
          return <Field key={key} {...common} multiline={field.type === 'text-area'} placeholder={field.placeholder ?? undefined} />
        })}
        {needsCode ? <Field label={t('newTicket.purchaseCode')} name="purchase_code" value={purchaseCode} onValue={setPurchaseCode} error={submit.error} hint={t('newTicket.purchaseCodeHint')} required /> : null}
        <AttachmentUploader files={files} onChange={setFiles} />
        <button type="submit" class="primary" disabled={submit.pending}>{submit.pending ? t('newTicket.submitting') : t('newTicket.submit')}</button>
      </form>
    </section>
  )
}
