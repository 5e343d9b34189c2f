import { useState } from 'preact/hooks'
import { Link, useLocation } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAction } from '../hooks.js'
import { ErrorBanner, Field } from './ui.js'
import { t } from '../../messages/index.js'
import type { Comment, Ticket } from '../types.js'

/** "This ticket was merged into #N", with Undo for staff (the API refuses once the grace period is over). */
export function MergedBanner ({ ticket, staff, onChanged }: { ticket: Ticket, staff: boolean, onChanged: () => void }) {
  const undo = useAction(async () => { await api.post(`/tickets/${ticket.id}/unmerge`); onChanged() })
  if (ticket.merged_into_id === null || ticket.merged_into_id === undefined) return null
  const target = ticket.merged_into_id
  return (
    <div class="banner banner-info" role="status" data-merged-into={target}>
      {t('merge.mergedInto')} <Link href={`/tickets/${target}`}>#{target}</Link>. {t('merge.repliesLand')}
      {staff ? <> <button type="button" class="link-button" disabled={undo.pending} onClick={() => { void undo.run() }}>{t('merge.undo')}</button></> : null}
      <ErrorBanner error={undo.error} />
    </div>
  )
}

/** Staff's "Merge into…" (find the other ticket by number or words) and "Split" (choose comments) of a ticket. */
export function TicketMergeActions ({ ticket, comments, onChanged }: { ticket: Ticket, comments: Comment[], onChanged: () => void }) {
  if (ticket.merged_into_id !== null && ticket.merged_into_id !== undefined) return null
  return (
    <section class="panel" aria-labelledby="merge-title">
      <h2 id="merge-title">{t('merge.title')}</h2>
      <MergeInto ticket={ticket} onMerged={onChanged} />
      {comments.length > 0 ? <SplitOff ticket={ticket} comments={comments} /> : null}
    </section>
  )
}

function MergeInto ({ ticket, onMerged }: { ticket: Ticket, onMerged: () => void }) {
  const [, navigate] = useLocation()
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<Ticket[] | undefined>(undefined)
  const search = useAction(async (text: string) => {
    const term = text.trim().replace(/^#/, '')
    if (term === '') { setFound(undefined); return }
    const page = await api.get<Page<Ticket>>('/tickets', { filter: { search: term }, per_page: 10 })
    setFound(page.data.filter((other) => other.id !== ticket.id && (other.merged_into_id ?? null) === null && other.user_id === ticket.user_id))
  })
  const merge = useAction(async (target: Ticket) => {
    if (!window.confirm(t('merge.confirm', { source: String(ticket.id), target: String(target.id), title: target.title }))) return
    await api.post(`/tickets/${ticket.id}/merge`, { target_id: target.id })
    onMerged()
    navigate(`/tickets/${target.id}`)
  })
  return (
    <form class="merge-into" onSubmit={(event) => { event.preventDefault(); void search.run(query) }}>
      <Field label={t('merge.into')} name="target_id" value={query} onValue={setQuery} placeholder={t('merge.searchHint')} error={merge.error} />
      <button type="submit" disabled={search.pending}>{t('merge.find')}</button>
      <ErrorBanner error={search.error ?? merge.error} />
      {found !== undefined && found.length === 0 ? <p class="muted">{t('merge.noneFound')}</p> : null}
      {found !== undefined && found.length > 0
        ? (
          <ul class="merge-candidates" aria-label={t('merge.candidates')}>
            {found.map((other) => (
              <li key={other.id}>
                <button type="button" disabled={merge.pending} onClick={() => { void merge.run(other) }}>
                  {t('merge.intoTicket', { id: String(other.id), title: other.title })}
                </button>
              </li>
            ))}
          </ul>
          )
        : null}
    </form>
  )
}

function SplitOff ({ ticket, comments }: { ticket: Ticket, comments: Comment[] }) {
  const [, navigate] = useLocation()
  const [open, setOpen] = useState(false)
  const [chosen, setChosen] = useState<number[]>([])
  const [subject, setSubject] = useState('')
  const split = useAction(async () => {
    const created = await api.post<{ data: Ticket }>(`/tickets/${ticket.id}/split`, { comment_ids: chosen, ...(subject.trim() !== '' ? { subject: subject.trim() } : {}) })
    navigate(`/tickets/${created.data.id}`)
  })
  if (!open) return <button type="button" onClick={() => { setOpen(true) }}>{t('merge.split')}</button>
  const toggle = (id: number, on: boolean) => { setChosen((ids) => on ? [...ids, id] : ids.filter((other) => other !== id)) }
  return (
    <form class="split-off" onSubmit={(event) => { event.preventDefault(); void split.run() }}>
      <fieldset>
        <legend>{t('merge.splitChoose')}</legend>
        {comments.map((comment) => (
          <label key={comment.id} class="checkbox">
            <input type="checkbox" name="comment_ids" value={String(comment.id)} checked={chosen.includes(comment.id)} onChange={(event) => { toggle(comment.id, (event.target as HTMLInputElement).checked) }} />
            {' '}{comment.type === 2 ? `${t('thread.internalNote')}: ` : ''}{comment.preview}
          </label>
        ))}
      </fieldset>
      <Field label={t('merge.splitSubject')} name="subject" value={subject} onValue={setSubject} hint={t('merge.splitSubjectHint')} error={split.error} maxLength={250} />
      <ErrorBanner error={split.error} />
      <button type="submit" disabled={split.pending || chosen.length === 0}>{t('merge.splitDo', { count: String(chosen.length) })}</button>
      {' '}<button type="button" class="secondary" onClick={() => { setOpen(false) }}>{t('common.cancel')}</button>
    </form>
  )
}
