import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, api, apiBase, csrfHeaders } from '../api.js'
import { listenToPresence } from '../live.js'
import { tabId } from '../tab-id.js'
import { t } from '../../messages/index.js'
import type { Comment, TicketPresence } from '../types.js'
import { personName } from './ui.js'
import { Prose } from './Prose.js'

/** How often the console says "still here" (the server forgets a silent tab after `ttl_seconds`, 30 s). */
const BEAT_MS = 10_000
/** Typing stops counting this long after the last keystroke. */
const TYPING_IDLE_MS = 5_000

type Entry = TicketPresence['entries'][number]

/** `YYYY-MM-DD HH:MM:SS` (UTC) as milliseconds. */
function utcMs (value: string): number {
  return Date.parse(`${value.replace(' ', 'T')}Z`)
}

interface Known {
  presence: TicketPresence
  /** Our clock minus the server's when it was read: `expires_at` is judged on the server's clock. */
  skew: number
}

/**
 * Presence on one ticket (staff): beats `PUT /tickets/{id}/presence` every 10 s and when typing starts or
 * stops, leaves with `DELETE` on the way out (a `keepalive` request, so closing the tab still sends it), both
 * with this tab's `client_id` (another tab of the same agent on the ticket keeps them present), and
 * keeps who else is there from the answers and the event stream's `presence` events. Entries past their
 * expiry disappear on their own, even when no event says so (a tab that crashed).
 */
export function usePresence (ticketId: number, enabled: boolean): { others: Entry[], typing: () => void, idle: () => void } {
  const [known, setKnown] = useState<Known | null>(null)
  const [, setTick] = useState(0)
  const state = useRef<'viewing' | 'typing'>('viewing')
  const idleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const accept = useCallback((presence: TicketPresence) => {
    if (presence.ticket_id !== ticketId) return
    setKnown((current) => current !== null && current.presence.now > presence.now
      ? current
      : { presence, skew: Date.now() - utcMs(presence.now) })
  }, [ticketId])

  const beat = useCallback(async () => {
    try {
      accept((await api.put<{ data: TicketPresence }>(`/tickets/${ticketId}/presence`, { state: state.current, client_id: tabId() })).data)
    } catch {
      // Presence is a courtesy: a failed beat is retried by the next one.
    }
  }, [ticketId, accept])

  useEffect(() => {
    if (!enabled) return
    state.current = 'viewing'
    setKnown(null)
    void beat()
    const timer = setInterval(() => { void beat() }, BEAT_MS)
    const stopListening = listenToPresence((data) => { accept(data as TicketPresence) })
    let left = false
    const leave = () => {
      if (left) return
      left = true
      void fetch(`${apiBase()}/tickets/${ticketId}/presence?client_id=${encodeURIComponent(tabId())}`, { method: 'DELETE', keepalive: true, credentials: 'same-origin', headers: { accept: 'application/json', ...csrfHeaders() } }).catch(() => {})
    }
    const pagehide = () => { leave() }
    // Back from the back/forward cache: present again.
    const pageshow = (event: PageTransitionEvent) => { if (event.persisted) { left = false; void beat() } }
    // A background tab's timers may be slowed to once a minute: beat again as soon as it is shown.
    const shown = () => { if (document.visibilityState === 'visible' && !left) void beat() }
    window.addEventListener('pagehide', pagehide)
    window.addEventListener('pageshow', pageshow)
    document.addEventListener('visibilitychange', shown)
    return () => {
      clearInterval(timer)
      clearTimeout(idleTimer.current)
      stopListening()
      window.removeEventListener('pagehide', pagehide)
      window.removeEventListener('pageshow', pageshow)
      document.removeEventListener('visibilitychange', shown)
      leave()
    }
  }, [ticketId, enabled, beat, accept])

  const others = known === null
    ? []
    : known.presence.entries.filter((entry) => utcMs(entry.expires_at) + known.skew > Date.now())

  // Re-render when the next entry expires, so a silent tab drops out without any event.
  useEffect(() => {
    if (known === null || others.length === 0) return
    const next = Math.min(...others.map((entry) => utcMs(entry.expires_at) + known.skew)) - Date.now()
    const timer = setTimeout(() => { setTick((n) => n + 1) }, Math.max(next, 0) + 250)
    return () => { clearTimeout(timer) }
  })

  const idle = useCallback(() => {
    clearTimeout(idleTimer.current)
    if (state.current === 'viewing') return
    state.current = 'viewing'
    void beat()
  }, [beat])

  const typing = useCallback(() => {
    if (!enabled) return
    clearTimeout(idleTimer.current)
    idleTimer.current = setTimeout(idle, TYPING_IDLE_MS)
    if (state.current === 'typing') return
    state.current = 'typing'
    void beat()
  }, [enabled, beat, idle])

  return { others, typing, idle }
}

function initials (entry: Entry): string {
  return `${entry.user.first_name.slice(0, 1)}${entry.user.last_name.slice(0, 1)}`.toUpperCase() || '?'
}

/** "Alice is viewing", "Bob is typing…": a polite live region, so screen readers hear arrivals without losing their place. */
export function PresenceBar ({ others }: { others: Entry[] }) {
  const shown = others.slice(0, 4)
  const more = others.length - shown.length
  return (
    <div class="presence" role="status" aria-live="polite" aria-label={t('presence.region')}>
      {shown.length > 0
        ? (
          <ul>
            {shown.map((entry) => (
              <li key={entry.user.id} class={`presence-${entry.state}`}>
                <span class="presence-avatar" aria-hidden="true" title={personName(entry.user)}>{initials(entry)}</span>
                {' '}{t(entry.state === 'typing' ? 'presence.typing' : 'presence.viewing', { name: personName(entry.user) })}
              </li>
            ))}
            {more !== 0 ? <li class="muted">{t('presence.more', { count: more })}</li> : null}
          </ul>
          )
        : null}
    </div>
  )
}

/**
 * The reply-collision check: remembers the newest comment id seen when the draft began, sends it as
 * `if_no_comments_after`, and on the API's 409 (or, live, when the thread reloads with others' new comments)
 * shows what they wrote.
 */
export function useReplyCollision (comments: Comment[] | undefined, myId: number | undefined, reload: () => void) {
  const mark = useRef<number | null>(null)
  const force = useRef(false)
  const [, setVersion] = useState(0)
  const [blocked, setBlocked] = useState(false)
  const latest = (comments ?? []).reduce((max, comment) => Math.max(max, comment.id), 0)
  const rerender = () => { setVersion((n) => n + 1) }
  const newer = mark.current === null
    ? []
    : (comments ?? []).filter((comment) => comment.id > (mark.current ?? 0) && comment.user?.id !== myId)
  return {
    newer,
    blocked,
    /** The draft began (first keystroke): remember what had been seen. */
    began: () => {
      if (mark.current !== null || comments === undefined) return
      mark.current = latest
      rerender()
    },
    /** The comment went out: the next draft starts afresh. */
    sent: () => {
      mark.current = null
      force.current = false
      setBlocked(false)
    },
    /** The send's extra fields. */
    fields: (): Record<string, unknown> => {
      if (force.current || mark.current === null) return {}
      return { if_no_comments_after: mark.current }
    },
    /** True when `error` is the API's collision answer (then shown here instead of as an error). */
    conflicted: (error: unknown): boolean => {
      if (!(error instanceof ApiError) || error.status !== 409) return false
      setBlocked(true)
      reload()
      return true
    },
    /** The new comments are read: later ones still warn. */
    review: () => {
      mark.current = latest
      setBlocked(false)
      rerender()
    },
    /** Send without the check this once. */
    sendAnyway: () => {
      force.current = true
      setBlocked(false)
    }
  }
}

/** What others wrote since the draft began; before sending, the choice to send anyway or to review first. */
export function CollisionWarning ({ newer, blocked, onSendAnyway, onReview }: { newer: Comment[], blocked: boolean, onSendAnyway: () => void, onReview: () => void }) {
  if (newer.length === 0 && !blocked) return <div class="collision-live" aria-live="polite" />
  return (
    <section class={`panel collision${blocked ? ' collision-blocked' : ''}`} role={blocked ? 'alert' : 'status'} aria-labelledby="collision-title">
      <h3 id="collision-title">{blocked ? t('collision.blockedTitle') : t('collision.newTitle')}</h3>
      {newer.map((comment) => (
        <article key={comment.id} class="collision-comment">
          <p><strong>{t(comment.type === 2 ? 'collision.noteBy' : 'collision.by', { name: personName(comment.user) })}</strong></p>
          <Prose html={comment.body} />
        </article>
      ))}
      <div class="row-actions">
        {blocked ? <button type="button" class="primary" onClick={onSendAnyway}>{t('collision.sendAnyway')}</button> : null}
        <button type="button" onClick={onReview}>{blocked ? t('collision.review') : t('collision.seen')}</button>
      </div>
    </section>
  )
}
