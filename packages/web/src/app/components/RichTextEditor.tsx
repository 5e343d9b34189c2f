import { useEffect, useRef, useState } from 'preact/hooks'
import { Editor } from '@tiptap/core'
import StarterKit from '@tiptap/starter-kit'
import Image from '@tiptap/extension-image'
import { t, type MessageKey } from '../../messages/index.js'
import { ApiError } from '../api.js'
import { allowedUrl, LINK_REL, richTextHtml, type RichTextNode } from '../rich-text-html.js'
import type { RichTextEditorProps } from './RichText.js'

/**
 * The rich-text editor: Tiptap (ProseMirror) without a framework binding,
 * mounted in a Preact component. Its schema has only what the server's
 * sanitiser keeps, and its HTML is written by `richTextHtml` in the
 * sanitiser's own form. Markdown shortcuts come with Tiptap's starter kit:
 * `**bold**`, `*italic*`, `` `code` ``, `- ` and `1. ` lists, `> ` quotes,
 * ```` ``` ```` code blocks, `## ` headings.
 */

interface Tool {
  key: string
  label: MessageKey
  text: string
  active: (editor: Editor) => boolean
  run: (editor: Editor) => void
  headings?: boolean
}

const TOOLS: Tool[] = [
  { key: 'bold', label: 'editor.bold', text: 'B', active: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() },
  { key: 'italic', label: 'editor.italic', text: 'I', active: (e) => e.isActive('italic'), run: (e) => e.chain().focus().toggleItalic().run() },
  { key: 'strike', label: 'editor.strike', text: 'S', active: (e) => e.isActive('strike'), run: (e) => e.chain().focus().toggleStrike().run() },
  { key: 'code', label: 'editor.code', text: '</>', active: (e) => e.isActive('code'), run: (e) => e.chain().focus().toggleCode().run() },
  { key: 'heading', label: 'editor.heading', text: 'H', headings: true, active: (e) => e.isActive('heading', { level: 2 }), run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run() },
  { key: 'bulletList', label: 'editor.bulletList', text: '•', active: (e) => e.isActive('bulletList'), run: (e) => e.chain().focus().toggleBulletList().run() },
  { key: 'orderedList', label: 'editor.orderedList', text: '1.', active: (e) => e.isActive('orderedList'), run: (e) => e.chain().focus().toggleOrderedList().run() },
  { key: 'blockquote', label: 'editor.quote', text: '❝', active: (e) => e.isActive('blockquote'), run: (e) => e.chain().focus().toggleBlockquote().run() },
  { key: 'codeBlock', label: 'editor.codeBlock', text: '{ }', active: (e) => e.isActive('codeBlock'), run: (e) => e.chain().focus().toggleCodeBlock().run() }
]

/** A typed address as a link: `example.com` becomes `https://example.com`, an email address a mailto: link. */
export function linkHref (typed: string): string {
  const value = typed.trim()
  if (value === '' || /^([a-z][a-z0-9+.-]*:|[/?#])/i.test(value)) return value
  if (/^[^\s@/]+@[^\s@/]+\.[^\s@/]+$/.test(value)) return `mailto:${value}`
  return `https://${value}`
}

/** Formatting the server keeps but this editor cannot hold (tables, classes, `<sub>`…): an older body with it loses it once edited. */
const BEYOND_EDITOR = /<(?:table|abbr|kbd|mark|small|sub|sup|ins)\b|\sclass="(?!language-)/i

function imageFiles (list: FileList | null | undefined): File[] {
  return Array.from(list ?? []).filter((file) => file.type.startsWith('image/'))
}

export default function RichTextEditor (props: RichTextEditorProps) {
  const mount = useRef<HTMLDivElement>(null)
  const toolbar = useRef<HTMLDivElement>(null)
  const linkInput = useRef<HTMLInputElement>(null)
  const latest = useRef(props)
  latest.current = props
  const emitted = useRef(props.value)
  /** What the editor sent since the value last caught up: their echoes (renders and effects run later than keystrokes) are not new values. */
  const echoes = useRef(new Set<string>())
  const [editor, setEditor] = useState<Editor | null>(null)
  const [, setRevision] = useState(0)
  const [focusIndex, setFocusIndex] = useState(0)
  const [link, setLink] = useState<string | null>(null)
  const [linkError, setLinkError] = useState('')
  const [status, setStatus] = useState('')
  const [uploadError, setUploadError] = useState('')
  const [lossy] = useState(() => BEYOND_EDITOR.test(props.value))

  const openLink = (ed: Editor) => {
    setLinkError('')
    setLink(String(ed.getAttributes('link').href ?? ''))
  }

  const insertImages = async (ed: Editor, files: File[], at?: number) => {
    const onImage = latest.current.onImage
    if (onImage === undefined) return
    setUploadError('')
    setStatus(t('editor.imageUploading', { count: files.length }))
    let done = 0
    for (const file of files) {
      try {
        const image = await onImage(file)
        const content = { type: 'image', attrs: { src: image.src, alt: image.alt } }
        if (at !== undefined) ed.chain().focus().insertContentAt(at, content).run()
        else ed.chain().focus().insertContent(content).run()
        done++
      } catch (caught) {
        setUploadError(`${file.name}: ${caught instanceof ApiError ? caught.message : String(caught)}`)
      }
    }
    setStatus(t('editor.imageUploaded', { count: done }))
  }

  useEffect(() => {
    const attributes = (): Record<string, string> => {
      const p = latest.current
      return {
        id: p.id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': p.labelId,
        ...(p.describedBy !== undefined ? { 'aria-describedby': p.describedBy } : {}),
        ...(p.invalid ? { 'aria-invalid': 'true' } : {}),
        class: 'rich-text-input prose'
      }
    }
    const created = new Editor({
      element: mount.current,
      extensions: [
        StarterKit.configure({
          link: {
            openOnClick: false,
            autolink: true,
            linkOnPaste: true,
            defaultProtocol: 'https',
            HTMLAttributes: { rel: LINK_REL, target: null },
            isAllowedUri: (url) => allowedUrl(url),
            shouldAutoLink: (url) => allowedUrl(linkHref(url))
          },
          dropcursor: { color: 'var(--accent)', width: 2 }
        }),
        Image.configure({ inline: false, allowBase64: false })
      ],
      content: props.value,
      // The page's CSP allows no inline <style>: ProseMirror's few rules are in styles.css.
      injectCSS: false,
      autofocus: props.autoFocus === true ? 'end' : false,
      editorProps: {
        attributes,
        handleKeyDown: (_view, event) => {
          if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
            event.preventDefault()
            openLink(created)
            return true
          }
          if (event.altKey && event.key === 'F10') {
            event.preventDefault()
            toolbar.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus()
            return true
          }
          return false
        },
        handlePaste: (_view, event) => {
          const files = imageFiles(event.clipboardData?.files)
          if (files.length === 0 || latest.current.onImage === undefined) return false
          event.preventDefault()
          void insertImages(created, files)
          return true
        },
        handleDrop: (view, event, _slice, moved) => {
          const files = imageFiles(event.dataTransfer?.files)
          if (moved || files.length === 0 || latest.current.onImage === undefined) return false
          event.preventDefault()
          const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos
          void insertImages(created, files, at)
          return true
        }
      },
      onUpdate: ({ editor: ed }) => {
        const html = richTextHtml(ed.getJSON() as RichTextNode)
        if (html === emitted.current) return
        emitted.current = html
        echoes.current.add(html)
        latest.current.onChange(html)
      },
      onTransaction: () => { setRevision((n) => n + 1) }
    })
    setEditor(created)
    // The field's label names a <div>, which a click on a label does not focus by itself.
    const label = document.getElementById(props.labelId)
    const focus = () => { created.commands.focus() }
    label?.addEventListener('click', focus)
    // The toolbar and the text box take their first state from the editor once it exists.
    setRevision((n) => n + 1)
    return () => {
      label?.removeEventListener('click', focus)
      created.destroy()
    }
  }, [])

  // A value set from outside (sent and cleared, a canned response inserted, a draft restored) replaces the content;
  // a value the editor itself sent a few keystrokes ago (its render came late) does not.
  useEffect(() => {
    if (editor === null) return
    if (props.value === emitted.current) {
      echoes.current.clear()
      return
    }
    if (echoes.current.has(props.value)) return
    emitted.current = props.value
    echoes.current.clear()
    editor.commands.setContent(props.value, { emitUpdate: false })
  }, [props.value, editor])

  // aria-invalid and aria-describedby follow the field's error.
  useEffect(() => {
    if (editor !== null) editor.view.setProps({})
  }, [props.invalid, props.describedBy, editor])

  useEffect(() => {
    if (link !== null) linkInput.current?.focus()
  }, [link !== null])

  const tools = TOOLS.filter((tool) => tool.headings !== true || props.headings === true)
  const buttons = tools.length + 1

  const onToolbarKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, Home: -focusIndex, End: buttons - 1 - focusIndex }
    const move = moves[event.key]
    if (move === undefined) {
      if (event.key === 'Escape') { event.preventDefault(); editor?.commands.focus() }
      return
    }
    event.preventDefault()
    const next = (focusIndex + move + buttons) % buttons
    setFocusIndex(next)
    toolbar.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus()
  }

  const applyLink = () => {
    if (editor === null || link === null) return
    const href = linkHref(link)
    if (href === '') {
      editor.chain().focus().extendMarkRange('link').unsetLink().run()
      setLink(null)
      return
    }
    if (!allowedUrl(href)) {
      setLinkError(t('editor.linkInvalid'))
      return
    }
    if (editor.state.selection.empty && !editor.isActive('link')) {
      editor.chain().focus().insertContent({ type: 'text', text: link.trim(), marks: [{ type: 'link', attrs: { href } }] }).run()
    } else {
      editor.chain().focus().extendMarkRange('link').setLink({ href }).run()
    }
    setLink(null)
  }

  const cancelLink = () => { setLink(null); editor?.commands.focus() }

  return (
    <div class="rich-text-editor">
      <div ref={toolbar} class="rich-text-toolbar" role="toolbar" aria-label={t('editor.toolbar')} aria-controls={props.id} onKeyDown={onToolbarKey}>
        {tools.map((tool, index) => (
          <button key={tool.key} type="button" class={`tool tool-${tool.key}`} tabIndex={index === focusIndex ? 0 : -1}
            aria-label={t(tool.label)} title={t(tool.label)} aria-pressed={editor !== null && tool.active(editor)} disabled={editor === null}
            onMouseDown={(e) => { e.preventDefault() }} onFocus={() => { setFocusIndex(index) }}
            onClick={() => { if (editor !== null) tool.run(editor) }}>
            <span class="glyph" aria-hidden="true" data-glyph={tool.text} />
          </button>
        ))}
        <button type="button" class="tool tool-link" tabIndex={focusIndex === tools.length ? 0 : -1}
          aria-label={t('editor.link')} title={t('editor.link')} aria-pressed={editor?.isActive('link') === true} aria-expanded={link !== null}
          disabled={editor === null} onMouseDown={(e) => { e.preventDefault() }} onFocus={() => { setFocusIndex(tools.length) }}
          onClick={() => { if (editor !== null) openLink(editor) }}>
          <span class="glyph" aria-hidden="true" data-glyph="🔗" />
        </button>
      </div>
      {link !== null
        ? (
          <fieldset class="rich-text-link">
            <legend class="visually-hidden">{t('editor.link')}</legend>
            <label for={`${props.id}-link`}>{t('editor.linkAddress')}</label>
            <input ref={linkInput} id={`${props.id}-link`} type="url" inputMode="url" value={link} placeholder="https://"
              aria-invalid={linkError !== '' ? true : undefined} aria-describedby={linkError !== '' ? `${props.id}-link-error` : undefined}
              onInput={(e) => { setLink(e.currentTarget.value); setLinkError('') }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') { e.preventDefault(); applyLink() }
                if (e.key === 'Escape') { e.preventDefault(); cancelLink() }
              }} />
            <button type="button" onClick={applyLink}>{t('editor.linkApply')}</button>
            {editor?.isActive('link') === true
              ? <button type="button" onClick={() => { editor.chain().focus().extendMarkRange('link').unsetLink().run(); setLink(null) }}>{t('editor.linkRemove')}</button>
              : null}
            <button type="button" onClick={cancelLink}>{t('common.cancel')}</button>
            {linkError !== '' ? <p class="field-error" id={`${props.id}-link-error`}>{linkError}</p> : null}
          </fieldset>
          )
        : null}
      {lossy ? <p class="rich-text-lossy" id={`${props.id}-lossy`}>{t('editor.lossy')}</p> : null}
      <div ref={mount} class="rich-text-area" />
      <p class="hint rich-text-hint">{t(props.onImage !== undefined ? 'editor.hintImages' : 'editor.hint')}</p>
      <p class="visually-hidden" role="status" aria-live="polite">{status}</p>
      {uploadError !== '' ? <p class="field-error" role="alert">{uploadError}</p> : null}
    </div>
  )
}
