import type { ComponentType } from 'preact'
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks'
import { t } from '../../messages/index.js'
import type { ApiError } from '../api.js'
import { htmlToText, textToHtml } from '../text.js'
import { labelledMessage, localProblem } from '../validation.js'

/** An image pasted or dropped into the editor, once stored: what its `<img>` shows. */
export interface InlineImage { src: string, alt: string }

/** What the editor chunk (RichTextEditor.tsx) is given. */
export interface RichTextEditorProps {
  id: string
  labelId: string
  describedBy?: string | undefined
  invalid: boolean
  value: string
  onChange: (html: string) => void
  autoFocus?: boolean | undefined
  /** The toolbar offers headings (articles). */
  headings?: boolean | undefined
  /** Stores a pasted or dropped image (replies and notes: as an attachment); without it, images are not taken. */
  onImage?: ((file: File) => Promise<InlineImage>) | undefined
}

export interface RichTextFieldProps {
  label: string
  name: string
  /** HTML, as the API stores it; `''` when empty. */
  value: string
  onChange: (html: string) => void
  error?: ApiError | undefined
  hint?: string | null | undefined
  required?: boolean
  autoFocus?: boolean
  headings?: boolean
  onImage?: (file: File) => Promise<InlineImage>
}

/** Whether an editor's HTML has nothing in it: no text and no image. */
export function richTextEmpty (html: string): boolean {
  return !/<img\b/i.test(html) && htmlToText(html).trim() === ''
}

let loaded: ComponentType<RichTextEditorProps> | undefined
let loading: Promise<ComponentType<RichTextEditorProps>> | undefined

/** The editor's chunk (Tiptap and ProseMirror), fetched the first time a composer or article form opens. */
function loadEditor (): Promise<ComponentType<RichTextEditorProps>> {
  loading ??= import('./RichTextEditor.js').then((module) => {
    loaded = module.default
    return module.default
  })
  return loading
}

/**
 * Until the editor's chunk has loaded (or if it cannot be), a plain text
 * area: what is typed is kept as paragraphs, and the editor takes it over.
 */
function PlainText ({ id, labelId, describedBy, invalid, value, onChange }: RichTextEditorProps) {
  const [text, setText] = useState(() => htmlToText(value))
  // As in the editor: a late echo of what was typed is not a new value; anything else replaces the text.
  const echoes = useRef(new Set<string>())
  useEffect(() => {
    if (value === textToHtml(text)) echoes.current.clear()
    else if (!echoes.current.has(value)) setText(htmlToText(value))
  }, [value])
  return (
    <textarea id={id} aria-labelledby={labelId} aria-describedby={describedBy} aria-invalid={invalid ? true : undefined}
      rows={6} value={text}
      onInput={(e) => {
        const next = e.currentTarget.value
        const html = textToHtml(next)
        setText(next)
        echoes.current.add(html)
        onChange(html)
      }} />
  )
}

/**
 * A labelled rich-text field (replies, notes, article bodies): a controlled
 * HTML value and `onChange`, like `Field`. The editor itself is a separate
 * chunk loaded here, so the login screen and the screens without a
 * composer never download it.
 */
export function RichTextField ({ label, name, value, onChange, error, hint, required, autoFocus, headings, onImage }: RichTextFieldProps) {
  const id = useId()
  const [Editor, setEditor] = useState<ComponentType<RichTextEditorProps> | undefined>(() => loaded)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (loaded !== undefined) return
    loadEditor().then((component) => { setEditor(() => component) }).catch(() => { setFailed(true) })
  }, [])
  const valueAtError = useMemo(() => value, [error])
  const apiMessage = error?.fieldError(name)
  const text = apiMessage === undefined ? '' : htmlToText(value)
  const message = apiMessage === undefined
    ? undefined
    : value === valueAtError ? labelledMessage(apiMessage, name, label) : localProblem(text, label, required)
  const describedBy = [hint != null && hint !== '' ? `${id}-hint` : '', message !== undefined ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  const props: RichTextEditorProps = { id, labelId: `${id}-label`, describedBy, invalid: message !== undefined, value, onChange, autoFocus, headings, onImage }
  return (
    <div class={`field rich-text${message !== undefined ? ' field-invalid' : ''}`} data-name={name}>
      <div class="label-row">
        {/* `for` names the text area; the editor's text box (a div) is aria-labelledby it, and a click on the label focuses it */}
        <label id={`${id}-label`} for={Editor === undefined ? id : undefined}>{label}</label>
        {required === true ? <span class="required-mark" aria-hidden="true">*</span> : null}
      </div>
      {Editor !== undefined ? <Editor {...props} /> : <PlainText {...props} />}
      {Editor === undefined ? <p class="hint" role="status">{failed ? t('editor.failed') : t('editor.loading')}</p> : null}
      {hint != null && hint !== '' ? <p class="hint" id={`${id}-hint`}>{hint}</p> : null}
      {message !== undefined ? <p class="field-error" id={`${id}-error`}>{message}</p> : null}
    </div>
  )
}
