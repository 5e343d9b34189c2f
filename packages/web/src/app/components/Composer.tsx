import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { Field, ErrorBanner, Checkbox, StatusMessage } from './ui.js'
import { AttachmentUploader, uploadAttachment } from './Attachments.js'
import { RichTextField, richTextEmpty, type InlineImage } from './RichText.js'
import { t } from '../../messages/index.js'
import type { Attachment, CannedResponse, Comment } from '../types.js'
import { Prose } from './Prose.js'
import { draftStatusText, useDraft } from './use-draft.js'

interface ComposerProps {
  ticketId: number
  staff: boolean
  closed: boolean
  autoFocus: boolean
  onSent: () => void
  /** Collision detection (components/Presence.tsx): extra fields for the send, and whether an error was its 409. */
  collision?: { fields: () => Record<string, unknown>, conflicted: (error: unknown) => boolean } | undefined
}

function CannedPicker ({ ticketId, onInsert }: { ticketId: number, onInsert: (html: string) => void }) {
  const responses = useAsync(async () => (await api.get<Page<CannedResponse>>('/canned-responses', { per_page: 100 })).data, [])
  const [chosen, setChosen] = useState('')
  const preview = useAsync(async () => chosen === ''
    ? null
    : (await api.get<{ data: { response: string } }>(`/canned-responses/${chosen}/placeholders/${ticketId}`)).data.response, [chosen, ticketId])
  const options = [{ value: '', label: t('composer.cannedNone') }, ...(responses.data ?? []).map((r) => ({ value: String(r.id), label: r.name }))]
  return (
    <div class="canned">
      <Field label={t('composer.canned')} name="canned_response" value={chosen} onValue={setChosen} options={options} />
      <ErrorBanner error={responses.error ?? preview.error} />
      {chosen !== '' && preview.data !== undefined && preview.data !== null
        ? (
          <div class="canned-preview">
            <h3>{t('composer.preview')}</h3>
            <Prose html={preview.data} />
            <button type="button" onClick={() => { onInsert(preview.data ?? ''); setChosen('') }}>{t('composer.insert')}</button>
          </div>
          )
        : null}
    </div>
  )
}

/**
 * Reply or internal note (staff), reply and close (owner); attachments by drag and drop; canned responses for staff.
 * The body is HTML from the rich-text editor (`RichTextField`, its own chunk): a controlled value and `setBody`.
 */
export function Composer ({ ticketId, staff, closed, autoFocus, onSent, collision }: ComposerProps) {
  const [body, setBody] = useState('')
  const [type, setType] = useState<'1' | '2'>('1')
  const [close, setClose] = useState(false)
  const [files, setFiles] = useState<Attachment[]>([])
  const [sent, setSent] = useState('')
  const form = useRef<HTMLFormElement>(null)
  // Saved on the server as it is typed (use-draft.ts): restored here, and on the author's other devices.
  const draft = useDraft(ticketId, { body: richTextEmpty(body) ? '' : body, type: type === '2' ? 2 : 1, attachments: files.map((f) => f.id) }, (saved) => {
    setBody(saved.body)
    setType(staff && saved.type === 2 ? '2' : '1')
    setFiles(saved.attachments)
  })

  useEffect(() => {
    if (autoFocus) form.current?.querySelector<HTMLElement>('.rich-text [id]:is(textarea, [contenteditable])')?.focus()
  }, [autoFocus])

  // A pasted or dropped image is uploaded as an attachment of this comment and shown where it was put.
  const attachImage = async (file: File): Promise<InlineImage> => {
    const attachment = await uploadAttachment(file)
    setFiles((current) => [...current, attachment])
    return { src: api.downloadUrl(attachment.id), alt: attachment.name }
  }

  // An attachment removed from the list takes its pasted image out of the text too (it would not be linked, so not shown).
  const changeFiles = (next: Attachment[]) => {
    const removed = files.filter((file) => !next.some((kept) => kept.id === file.id))
    const images = removed.map((file) => api.downloadUrl(file.id))
    const stripped = images.reduce((html, src) => html.split(/(<img\b[^>]*>)/).filter((part) => !part.startsWith(`<img src="${src}"`)).join(''), body)
    if (stripped !== body) setBody(stripped)
    setFiles(next)
  }

  const send = useAction(async () => {
    // The server deletes the draft with the comment: no autosave may land after it.
    await draft.beforeSend()
    let comment: { data: Comment } | undefined
    try {
      comment = await api.post<{ data: Comment }>(`/tickets/${ticketId}/comments`, {
        body,
        type: Number(type),
        private: false,
        ...(close && type === '1' ? { close: true } : {}),
        ...(files.length > 0 ? { attachments: files.map((f) => f.id) } : {}),
        ...collision?.fields()
      })
    } catch (error) {
      if (collision?.conflicted(error) === true) return
      throw error
    } finally {
      draft.afterSend(comment !== undefined)
    }
    setBody('')
    setFiles([])
    setClose(false)
    setSent(comment.data.type === 2 ? t('composer.noteAdded') : t('composer.replySent'))
    onSent()
  })

  const isNote = type === '2'
  return (
    <form ref={form} class={`composer${isNote ? ' composer-note' : ''}`} aria-labelledby="composer-title" onSubmit={(e) => { e.preventDefault(); void send.run() }} onFocusOut={draft.flush} noValidate>
      <h2 id="composer-title">{isNote ? t('composer.titleNote') : t('composer.titleReply')}</h2>
      {staff
        ? (
          <fieldset class="segmented">
            <legend>{t('composer.type')}</legend>
            <label><input type="radio" name="comment_type" value="1" checked={type === '1'} onChange={() => { setType('1') }} /> {t('composer.reply')}</label>
            <label><input type="radio" name="comment_type" value="2" checked={type === '2'} onChange={() => { setType('2') }} /> {t('composer.note')}</label>
          </fieldset>
          )
        : null}
      {staff ? <CannedPicker ticketId={ticketId} onInsert={(html) => { setBody(richTextEmpty(body) ? html : `${body}${html}`) }} /> : null}
      <ErrorBanner error={send.error} />
      <RichTextField label={isNote ? t('composer.noteBody') : t('composer.replyBody')} name="body" value={body} onChange={setBody} error={send.error} autoFocus={autoFocus} onImage={attachImage} required />
      {isNote ? <p class="hint">{t('composer.noteHint')}</p> : null}
      <AttachmentUploader files={files} onChange={changeFiles} />
      {!isNote && !closed ? <Checkbox label={t('composer.close')} checked={close} onChange={setClose} name="close" /> : null}
      <button type="submit" class="primary" disabled={send.pending || richTextEmpty(body)}>
        {send.pending ? t('composer.sending') : isNote ? t('composer.addNote') : close ? t('composer.sendAndClose') : t('composer.send')}
      </button>
      {draft.stored
        ? <button type="button" class="draft-discard" onClick={() => { setBody(''); setFiles([]); setClose(false); setSent(''); void draft.discard() }}>{t('composer.draftDiscard')}</button>
        : null}
      <p class="draft-status" role="status" aria-live="polite">{draftStatusText(draft.status)}</p>
      {sent !== '' ? <StatusMessage message={sent} /> : null}
    </form>
  )
}
