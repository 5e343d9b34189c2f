import { useState, useId, useRef } from 'preact/hooks'
import { api, ApiError } from '../api.js'
import { t } from '../../messages/index.js'
import { formatSize } from './ui.js'
import type { Attachment } from '../types.js'

export function AttachmentList ({ attachments }: { attachments: Attachment[] | undefined }) {
  if (attachments === undefined || attachments.length === 0) return null
  return (
    <ul class="attachments" aria-label={t('attachments.label')}>
      {attachments.map((file) => (
        <li key={file.id}><a href={api.downloadUrl(file.id)} download={file.name}>{file.name}</a> <span class="muted">({formatSize(file.size)})</span></li>
      ))}
    </ul>
  )
}

/** Stores a file (POST /attachments), not yet linked: a comment links it by listing its id. */
export async function uploadAttachment (file: File): Promise<Attachment> {
  const form = new FormData()
  form.append('file', file, file.name)
  return (await api.post<{ data: Attachment }>('/attachments', form)).data
}

/** Drop zone and file picker; uploads each file to POST /attachments at once and reports the ids. */
export function AttachmentUploader ({ files, onChange }: { files: Attachment[], onChange: (files: Attachment[]) => void }) {
  const id = useId()
  const [dragging, setDragging] = useState(false)
  const [busy, setBusy] = useState(0)
  const [error, setError] = useState<string | null>(null)
  const [status, setStatus] = useState('')
  // The list as it is when an upload ends (an image pasted into the composer meanwhile is in it).
  const latest = useRef(files)
  latest.current = files

  const add = async (list: FileList | null) => {
    if (list === null || list.length === 0) return
    setError(null)
    const added: Attachment[] = []
    setBusy((n) => n + list.length)
    setStatus(t('attachments.uploading', { count: list.length }))
    for (const file of Array.from(list)) {
      try {
        added.push(await uploadAttachment(file))
      } catch (caught) {
        setError(caught instanceof ApiError ? `${file.name}: ${caught.message}` : String(caught))
      } finally {
        setBusy((n) => n - 1)
      }
    }
    onChange([...latest.current, ...added])
    setStatus(t('attachments.uploaded', { count: added.length }))
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse only; the keyboard and screen readers use the file input inside
    <div
      class={`dropzone${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => { e.preventDefault(); setDragging(true) }}
      onDragLeave={() => { setDragging(false) }}
      onDrop={(e) => { e.preventDefault(); setDragging(false); void add(e.dataTransfer?.files ?? null) }}
    >
      <label for={id}>{t('attachments.add')}</label>
      <input id={id} type="file" multiple onChange={(e) => { void add(e.currentTarget.files); e.currentTarget.value = '' }} />
      <p class="hint">{t('attachments.dropHint')}</p>
      <p class="visually-hidden" role="status" aria-live="polite">{busy > 0 ? t('attachments.uploading', { count: busy }) : status}</p>
      {error !== null ? <p class="field-error" role="alert">{error}</p> : null}
      {files.length > 0
        ? (
          <ul class="attachments">
            {files.map((file) => (
              <li key={file.id}>
                {file.name} <span class="muted">({formatSize(file.size)})</span>{' '}
                <button type="button" class="link-button" aria-label={t('attachments.remove', { name: file.name })} onClick={() => { onChange(files.filter((f) => f.id !== file.id)) }}>{t('common.remove')}</button>
              </li>
            ))}
          </ul>
          )
        : null}
    </div>
  )
}
