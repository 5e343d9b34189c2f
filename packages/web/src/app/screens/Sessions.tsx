import { useState } from 'preact/hooks'
import { api, type Page } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { DateTime, ItemButton, ListStatus, PageHeader, Pager } from '../components/ui.js'
import { t } from '../../messages/index.js'
import type { SignInSession } from '../types.js'

/** What a person recognises a session by: its browser or client as it said at login. */
function clientOf (session: SignInSession): string {
  return session.user_agent ?? t('sessions.unknownClient')
}

/** The signed-in person's sessions: where they are signed in, and signing out of any of them. */
export default function Sessions () {
  const [cursors, setCursors] = useState<string[]>([''])
  const [done, setDone] = useState('')
  const cursor = cursors[cursors.length - 1] ?? ''
  const list = useAsync(async () => await api.get<Page<SignInSession>>('/auth/sessions', { per_page: 50, cursor }), [cursor])
  const end = useAction(async (session: SignInSession) => {
    await api.delete(`/auth/sessions/${session.id}`)
    setDone(t('sessions.ended'))
    list.reload()
  })
  const endOthers = useAction(async () => {
    await api.delete('/auth/sessions')
    setDone(t('sessions.othersEnded'))
    setCursors([''])
    list.reload()
  })
  const sessions = list.data?.data ?? []
  const others = sessions.some((session) => !session.current) || cursors.length > 1 || (list.data?.meta.next_cursor ?? null) !== null
  return (
    <section>
      <PageHeader title={t('sessions.title')}>
        <button type="button" class="danger" disabled={!others || endOthers.pending} onClick={() => { void endOthers.run() }}>{t('sessions.endOthers')}</button>
      </PageHeader>
      <p class="muted">{t('sessions.intro')}</p>
      <ListStatus error={list.error ?? end.error ?? endOthers.error} done={done} loading={list.data === undefined} />
      <ul class="card-list" aria-label={t('sessions.title')}>
        {sessions.map((session) => (
          <li key={session.id} class="card">
            <p>
              <strong>{clientOf(session)}</strong>
              {session.current ? <span class="badge badge-note">{t('sessions.current')}</span> : null}
            </p>
            <p class="muted">
              {t(session.type === 'cookie' ? 'sessions.type.cookie' : 'sessions.type.bearer')}
              {session.ip !== null ? ` · ${t('sessions.ip', { ip: session.ip })}` : ''}
            </p>
            <p class="muted">
              {t('sessions.signedIn')} <DateTime value={session.created_at} /> · {t('sessions.lastActive')} <DateTime value={session.last_used_at} /> ·{' '}
              {t('sessions.ends')} <DateTime value={session.expires_at} />
            </p>
            {session.current
              ? null
              : <ItemButton label={t('sessions.end')} name={clientOf(session)} class="danger" onClick={() => { void end.run(session) }} />}
          </li>
        ))}
      </ul>
      <Pager cursors={cursors} onCursors={setCursors} next={list.data?.meta.next_cursor ?? null} />
    </section>
  )
}
