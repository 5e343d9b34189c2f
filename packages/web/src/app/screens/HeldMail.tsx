import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, apiBase, type Page } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { DateTime, ItemButton, ListStatus, PageHeader, Pager } from '../components/ui.js'
import { t } from '../../messages/index.js'
import type { MailRecord } from '../types.js'

/** What an administrator recognises a held mail by: its subject, or its sender when it has none. */
function nameOf (mail: MailRecord): string {
  return mail.subject ?? mail.sender ?? t('heldMail.untitled')
}

/**
 * Held mail: received mail whose sender could not be verified (a staff
 * address without passing DKIM/SPF, a reply from someone else than its
 * token's recipient). Nothing was posted or mailed; an administrator reads
 * the original and the reason, then posts it on its ticket or discards it.
 */
export default function HeldMail () {
  const [cursors, setCursors] = useState<string[]>([''])
  const [done, setDone] = useState('')
  const cursor = cursors[cursors.length - 1] ?? ''
  const list = useAsync(async () => await api.get<Page<MailRecord>>('/mail/inbound', { filter: { status: 'held' }, per_page: 25, cursor }), [cursor])
  const release = useAction(async (mail: MailRecord) => {
    await api.post(`/mail/inbound/${mail.id}/release`, {})
    setDone(t('heldMail.released', { subject: nameOf(mail) }))
    list.reload()
  })
  const discard = useAction(async (mail: MailRecord) => {
    await api.post(`/mail/inbound/${mail.id}/discard`, {})
    setDone(t('heldMail.discarded', { subject: nameOf(mail) }))
    list.reload()
  })
  const held = list.data?.data ?? []
  return (
    <section>
      <PageHeader title={t('heldMail.title')} />
      <p class="muted">{t('heldMail.intro')}</p>
      <ListStatus error={list.error ?? release.error ?? discard.error} done={done} loading={list.data === undefined} />
      {list.data !== undefined && held.length === 0 ? <p>{t('heldMail.none')}</p> : null}
      <ul class="card-list" aria-label={t('heldMail.title')}>
        {held.map((mail) => (
          <li key={mail.id} class="card">
            <p><strong class="wrap-anywhere">{nameOf(mail)}</strong></p>
            <p class="muted wrap-anywhere">
              {t('heldMail.from', { sender: mail.sender ?? '?' })}
              {mail.ticket_id !== null ? <> · <Link href={`/tickets/${mail.ticket_id}`}>{t('heldMail.ticket', { id: mail.ticket_id })}</Link></> : null}
              {' · '}<DateTime value={mail.created_at} />
            </p>
            <p class="wrap-anywhere">{t('heldMail.reason')} {mail.error ?? '—'}</p>
            <p class="card-actions">
              <a href={`${apiBase()}/mail/inbound/${mail.id}/raw`} download>{t('heldMail.original')}</a>
              <ItemButton label={t('heldMail.release')} name={nameOf(mail)} onClick={() => { void release.run(mail) }} />
              <ItemButton label={t('heldMail.discard')} name={nameOf(mail)} class="danger" onClick={() => { void discard.run(mail) }} />
            </p>
          </li>
        ))}
      </ul>
      <Pager cursors={cursors} onCursors={setCursors} next={list.data?.meta.next_cursor ?? null} />
    </section>
  )
}
