import type { ComponentChildren, JSX } from 'preact'
import { useId, useMemo } from 'preact/hooks'
import { t } from '../../messages/index.js'
import type { ApiError } from '../api.js'
import { formatDateTime, isoDateTime } from '../dates.js'
import { labelledMessage, localProblem } from '../validation.js'

/** An API error's message, announced to screen readers. */
export function ErrorBanner ({ error }: { error: ApiError | undefined }) {
  if (error === undefined) return null
  return <div class="banner banner-error" role="alert">{bannerMessage(error)}</div>
}

/** A 422 whose every field is on the page says so in the console's words (each field shows its own sentence); other errors their message. */
function bannerMessage (error: ApiError): string {
  const fields = Object.keys(error.errors)
  const shown = (key: string) => document.getElementsByName(key).length > 0 || document.getElementsByName(key.split('.')[0] ?? key).length > 0
  return error.status === 422 && fields.length > 0 && fields.every(shown) ? t('validation.banner') : error.message
}

export function Loading ({ label }: { label?: string }) {
  return <p class="loading" role="status">{label ?? t('common.loading')}</p>
}

/** A polite live region for results of async actions ("Saved.", "Reply sent."). */
export function StatusMessage ({ message }: { message: string }) {
  return <p class="status-message" role="status" aria-live="polite">{message}</p>
}

/** The frame of a create-or-edit panel: heading, the save's error, the fields, Create or Save, and Cancel when given. */
export function EditorForm ({ heading, creating, save, onCancel, children }: {
  heading: string
  creating: boolean
  save: { run: () => Promise<unknown>, pending: boolean, error: ApiError | undefined }
  onCancel?: (() => void) | undefined
  children: ComponentChildren
}) {
  return (
    <form class="panel" aria-label={heading} onSubmit={(e) => { e.preventDefault(); void save.run() }} noValidate>
      <h2>{heading}</h2>
      <ErrorBanner error={save.error} />
      {children}
      <div class="row-actions">
        <button type="submit" class="primary" disabled={save.pending}>{creating ? t('common.create') : t('common.save')}</button>
        {onCancel !== undefined ? <button type="button" onClick={onCancel}>{t('common.cancel')}</button> : null}
      </div>
    </form>
  )
}

/** What a list screen shows above its list: the first error, the last action's result, and a loading line. */
export function ListStatus ({ error, done, loading }: { error: ApiError | undefined, done: string, loading: boolean }) {
  return (
    <>
      <ErrorBanner error={error} />
      {done !== '' ? <StatusMessage message={done} /> : null}
      {loading ? <Loading /> : null}
    </>
  )
}

/** A button of a list row; its text ends with the row item's name, for screen readers only. */
export function ItemButton ({ label, name, ...button }: { label: string, name: string } & Omit<JSX.HTMLAttributes<HTMLButtonElement>, 'label' | 'name'>) {
  return <button type="button" {...button}>{label}<span class="visually-hidden"> {name}</span></button>
}

/** The edit and delete buttons of a list row. */
export function EditDeleteActions ({ name, onEdit, onDelete }: { name: string, onEdit: () => void, onDelete: () => void }) {
  return (
    <div class="row-actions">
      <ItemButton label={t('common.edit')} name={name} onClick={onEdit} />
      <ItemButton label={t('common.delete')} name={name} class="danger" onClick={onDelete} />
    </div>
  )
}

export function DateTime ({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined) return null
  return <time dateTime={isoDateTime(value)}>{formatDateTime(value)}</time>
}

interface FieldProps {
  autoComplete?: string
  maxLength?: number
  placeholder?: string | undefined
  label: string
  name: string
  value: string
  onValue: (value: string) => void
  error?: ApiError | undefined
  hint?: string | null | undefined
  type?: string
  multiline?: boolean
  options?: Array<{ value: string, label: string }>
  required?: boolean
}

/** A labelled control; a 422 from the API marks it (aria-invalid) and shows the field's sentence. */
export function Field ({ label, name, value, onValue, error, hint, type = 'text', multiline, options, required, autoComplete, maxLength, placeholder }: FieldProps) {
  const id = useId()
  // The API's sentence in the form's words, until the field is changed: then only what is still wrong with it shows.
  const valueAtError = useMemo(() => value, [error])
  const apiMessage = error?.fieldError(name)
  const message = apiMessage === undefined
    ? undefined
    : value === valueAtError ? labelledMessage(apiMessage, name, label) : localProblem(value, label, required)
  const describedBy = [hint != null && hint !== '' ? `${id}-hint` : '', message !== undefined ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  const common = {
    id,
    name,
    'aria-invalid': message !== undefined ? true : undefined,
    'aria-describedby': describedBy,
    required
  }
  let control
  if (options !== undefined) {
    control = (
      <select {...common} value={value} onChange={(e) => { onValue(e.currentTarget.value) }}>
        {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
    )
  } else if (multiline === true) {
    control = <textarea {...common} placeholder={placeholder} value={value} rows={6} onInput={(e) => { onValue(e.currentTarget.value) }} />
  } else {
    control = <input {...common} autocomplete={autoComplete} maxLength={maxLength} placeholder={placeholder} type={type} value={value} onInput={(e) => { onValue(e.currentTarget.value) }} />
  }
  return (
    <div class={`field${message !== undefined ? ' field-invalid' : ''}`}>
      <div class="label-row">
        <label for={id}>{label}</label>
        {required === true ? <span class="required-mark" aria-hidden="true">*</span> : null}
      </div>
      {control}
      {hint != null && hint !== '' ? <p class="hint" id={`${id}-hint`}>{hint}</p> : null}
      {message !== undefined ? <p class="field-error" id={`${id}-error`}>{message}</p> : null}
    </div>
  )
}

export function Checkbox ({ label, checked, onChange, name }: { label: string, checked: boolean, onChange: (checked: boolean) => void, name?: string }) {
  const id = useId()
  return (
    <div class="checkbox">
      <input id={id} name={name} type="checkbox" checked={checked} onChange={(e) => { onChange(e.currentTarget.checked) }} />
      <label for={id}>{label}</label>
    </div>
  )
}

export function PageHeader ({ title, children }: { title: string, children?: ComponentChildren }) {
  return (
    <div class="page-header">
      <h1>{title}</h1>
      {children !== undefined ? <div class="page-actions">{children}</div> : null}
    </div>
  )
}

export function statusLabel (status: number): string {
  return status === 1 ? t('ticket.status.open') : status === 2 ? t('ticket.status.pending') : t('ticket.status.closed')
}

export function StatusBadge ({ status }: { status: number }) {
  return <span class={`badge badge-status-${status}`}>{statusLabel(status)}</span>
}

export function personName (person: { first_name: string, last_name: string } | null | undefined): string {
  if (person === null || person === undefined) return ''
  return `${person.first_name} ${person.last_name}`.trim()
}

export function formatSize (bytes: number): string {
  if (bytes < 1024) return t('file.bytes', { size: bytes })
  if (bytes < 1024 * 1024) return t('file.kb', { size: Math.round(bytes / 1024) })
  return t('file.mb', { size: (bytes / 1024 / 1024).toFixed(1) })
}

/**
 * Previous/Next for cursor paging. `cursors` are the cursors of the pages up to the
 * shown one (the first is ''), so "Previous" needs no prev_cursor arithmetic; `next`
 * is the list's `meta.next_cursor`.
 */
export function Pager ({ cursors, onCursors, next }: { cursors: string[], onCursors: (cursors: string[]) => void, next: string | null }) {
  return (
    <nav class="pager" aria-label={t('inbox.paging')}>
      <button type="button" disabled={cursors.length <= 1} onClick={() => { onCursors(cursors.slice(0, -1)) }}>{t('common.previous')}</button>
      <button type="button" disabled={next === null} onClick={() => { if (next !== null) onCursors([...cursors, next]) }}>{t('common.next')}</button>
    </nav>
  )
}
