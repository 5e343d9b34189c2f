import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { api, request } from '../api.js'
import { t } from '../../messages/index.js'
import type { Draft } from '../types.js'

/** What the composer holds, as the API takes it (`PUT /tickets/{id}/draft`). */
export interface DraftValue {
  /** The body as HTML (what the comment would send). */
  body: string
  type: 1 | 2
  attachments: string[]
}

export type DraftStatus = 'idle' | 'saving' | 'saved' | 'error' | 'discarded'

export interface DraftState {
  /** What the live region says: saved, saving, could not save, discarded; empty when there is nothing to say. */
  status: DraftStatus
  /** Text (or files) typed and not saved yet: leaving now would lose it. */
  unsaved: boolean
  /** The server holds a draft of this ticket (so Discard has something to discard). */
  stored: boolean
  /** Saves now what waits for the debounce (on blur, on leaving). */
  flush: () => void
  /** Deletes the stored draft; the composer clears itself. */
  discard: () => Promise<void>
  /** Call before sending: stops autosaving and waits for a save under way, so no save lands after the comment. */
  beforeSend: () => Promise<void>
  /** Call after sending: `sent` true when the comment was created (the server deleted the draft with it). */
  afterSend: (sent: boolean) => void
}

/** How long typing must pause before the draft is saved. */
export const DRAFT_DEBOUNCE_MS = 1000

const isEmpty = (value: DraftValue): boolean => value.body === '' && value.attachments.length === 0
const keyOf = (value: DraftValue): string => JSON.stringify([value.body, value.type, value.attachments])

/**
 * Autosaves the composer's draft of a ticket on the server (issue 35): restores
 * it on load (`onRestore` gets the stored draft), saves ~1 s after typing
 * stops and at once on `flush` (blur) or when the page is hidden, deletes it
 * when the text is cleared. While text is not saved yet, closing or reloading
 * the tab asks first (`beforeunload`), and so does following a link inside
 * the console. The composer keeps a controlled value; this hook only watches it.
 */
export function useDraft (ticketId: number, value: DraftValue, onRestore: (draft: Draft) => void): DraftState {
  const [status, setStatus] = useState<DraftStatus>('idle')
  const [phase, setPhase] = useState<'loading' | 'restored' | 'ready'>('loading')
  // The key of what the server holds; null when it holds no draft.
  const serverKey = useRef<string | null>(null)
  const [stored, setStored] = useState(false)
  const latest = useRef(value)
  latest.current = value
  const restore = useRef(onRestore)
  restore.current = onRestore
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const inFlight = useRef<Promise<void> | null>(null)
  const suspended = useRef(false)
  const url = `/tickets/${ticketId}/draft`

  const dirty = useCallback((current: DraftValue): boolean =>
    isEmpty(current) ? serverKey.current !== null : keyOf(current) !== serverKey.current, [])

  const known = (key: string | null): void => {
    serverKey.current = key
    setStored(key !== null)
  }

  const save = useCallback(async (keepalive = false): Promise<void> => {
    clearTimeout(timer.current)
    if (suspended.current) return
    if (inFlight.current !== null) {
      await inFlight.current
      // A send or discard may have begun meanwhile: no save may land after it.
      if (suspended.current || !dirty(latest.current)) return
    }
    const current = latest.current
    if (!dirty(current)) return
    const key = keyOf(current)
    const run = (async () => {
      setStatus('saving')
      try {
        if (isEmpty(current)) {
          await request('DELETE', url, undefined, {}, { keepalive })
          known(null)
          setStatus('idle')
        } else {
          await request('PUT', url, { body: current.body, type: current.type, attachments: current.attachments }, {}, { keepalive })
          known(key)
          setStatus('saved')
        }
      } catch {
        setStatus('error')
      }
    })()
    inFlight.current = run
    try { await run } finally { if (inFlight.current === run) inFlight.current = null }
  }, [url, dirty])

  // Load (and restore) the draft of this ticket.
  useEffect(() => {
    let live = true
    setPhase('loading')
    known(null)
    setStatus('idle')
    api.get<{ data: Draft | null }>(url).then(({ data }) => {
      if (!live) return
      if (data === null) { setPhase('ready'); return }
      restore.current(data)
      // The next render holds the restored value: that is what the server has.
      setPhase('restored')
      setStatus('saved')
    }).catch(() => { if (live) setPhase('ready') })
    return () => { live = false; clearTimeout(timer.current) }
  }, [url])

  const key = keyOf(value)
  useEffect(() => {
    if (phase === 'restored') { known(key); setPhase('ready'); return }
    if (phase !== 'ready' || suspended.current || !dirty(latest.current)) return
    clearTimeout(timer.current)
    timer.current = setTimeout(() => { void save() }, DRAFT_DEBOUNCE_MS)
  }, [key, phase, save, dirty])

  const unsaved = phase === 'ready' && !suspended.current && dirty(value) && !isEmpty(value)
  const unsavedRef = useRef(unsaved)
  unsavedRef.current = unsaved

  // Leaving: the tab (closing, reloading) asks first; a hidden page saves what it can on its way out.
  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent): void => {
      if (!unsavedRef.current) return
      event.preventDefault()
      event.returnValue = ''
    }
    const pageHide = (): void => { if (unsavedRef.current) void save(true) }
    // A link inside the console (a client-side navigation) asks too; captured before the router's own handler.
    const click = (event: MouseEvent): void => {
      if (!unsavedRef.current || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.('a[href]')
      if (link === null || link === undefined || (link as HTMLAnchorElement).target === '_blank' || link.hasAttribute('download')) return
      if (new URL((link as HTMLAnchorElement).href, document.baseURI).origin !== location.origin) return
      if (window.confirm(t('composer.draftLeave'))) { void save(true); return }
      event.preventDefault()
      event.stopPropagation()
    }
    window.addEventListener('beforeunload', beforeUnload)
    window.addEventListener('pagehide', pageHide)
    document.addEventListener('click', click, true)
    return () => {
      window.removeEventListener('beforeunload', beforeUnload)
      window.removeEventListener('pagehide', pageHide)
      document.removeEventListener('click', click, true)
    }
  }, [save])

  const flush = useCallback(() => { if (phase === 'ready') void save() }, [phase, save])

  const discard = useCallback(async () => {
    clearTimeout(timer.current)
    suspended.current = true
    try {
      if (inFlight.current !== null) await inFlight.current
      await api.delete(url)
      known(null)
      setStatus('discarded')
    } catch {
      setStatus('error')
    } finally {
      suspended.current = false
    }
  }, [url])

  const beforeSend = useCallback(async () => {
    clearTimeout(timer.current)
    suspended.current = true
    if (inFlight.current !== null) await inFlight.current
  }, [])

  const afterSend = useCallback((sent: boolean) => {
    suspended.current = false
    if (sent) {
      known(null)
      setStatus('idle')
    } else if (dirty(latest.current)) {
      timer.current = setTimeout(() => { void save() }, DRAFT_DEBOUNCE_MS)
    }
  }, [save, dirty])

  return { status, unsaved, stored, flush, discard, beforeSend, afterSend }
}

/** The live region's words for a status (empty: say nothing). */
export function draftStatusText (status: DraftStatus): string {
  switch (status) {
    case 'saving': return t('composer.draftSaving')
    case 'saved': return t('composer.draftSaved')
    case 'error': return t('composer.draftError')
    case 'discarded': return t('composer.draftDiscarded')
    default: return ''
  }
}
