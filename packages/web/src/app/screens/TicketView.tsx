import { Fragment } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api, type Page } from '../api.js'
import { useAsync } from '../hooks.js'
import { useSession } from '../session.js'
import { loadCategories } from '../data.js'
import { subscribeToChanges } from '../live.js'
import { takeComposerFocus } from '../intents.js'
import { useTicketShortcuts } from '../components/ticket-shortcuts.js'
import { ErrorBanner, Loading, StatusBadge, DateTime, personName } from '../components/ui.js'
import { AttachmentList } from '../components/Attachments.js'
import { Composer } from '../components/Composer.js'
import { TicketControls } from '../components/TicketControls.js'
import { PriorityBadge } from '../components/TicketLabels.js'
import { MacroPicker } from '../components/MacroPicker.js'
import { CustomerPanel } from '../components/CustomerPanel.js'
import { ReplyPrivacy } from '../components/ReplyPrivacy.js'
import { TicketPrivacy } from '../components/TicketPrivacy.js'
import { t } from '../../messages/index.js'
import type { Comment, Ticket } from '../types.js'
import { Prose } from '../components/Prose.js'
import { SatisfactionPanel } from '../components/Satisfaction.js'
import { HistoryLine, interleave, type HistoryEntry } from '../components/HistoryTimeline.js'
import { SlaBadge } from '../components/SlaBadge.js'
import { CollisionWarning, PresenceBar, usePresence, useReplyCollision } from '../components/Presence.js'
import { MergedBanner, TicketMergeActions } from '../components/TicketMerge.js'

function ThreadEntry ({ comment, staff, onChanged }: { comment: Comment, staff: boolean, onChanged: () => void }) {
  const isNote = comment.type === 2
  return (
    <article class={`entry ${isNote ? 'entry-note' : 'entry-reply'}`} aria-label={isNote ? t('thread.noteBy', { name: personName(comment.user) }) : t('thread.replyBy', { name: personName(comment.user) })}>
      <header>
        <strong>{personName(comment.user)}</strong>
        {isNote ? <span class="badge badge-note">{t('thread.internalNote')}</span> : null}
        <span class="muted"> · <DateTime value={comment.created_at} /></span>
        {!isNote && (staff || comment.private) ? <> · <ReplyPrivacy comment={comment} staff={staff} onChanged={onChanged} /></> : null}
      </header>
      <Prose html={comment.body} />
      <AttachmentList attachments={comment.attachments} />
    </article>
  )
}

export default function TicketView ({ id }: { id: number }) {
  const { user, isStaff, can } = useSession()
  const [focusComposer] = useState(() => takeComposerFocus(id))
  const ticket = useAsync(async () => (await api.get<{ data: Ticket }>(`/tickets/${id}`, { include: ['user', 'category', 'agent', 'attachments', 'satisfaction', 'tags'] })).data, [id])
  const comments = useAsync(async () => (await api.get<Page<Comment>>(`/tickets/${id}/comments`, { include: ['user', 'attachments'], per_page: 100 })).data, [id])
  const history = useAsync(async () => (await api.get<Page<HistoryEntry>>(`/tickets/${id}/history`, { include: ['user'], per_page: 100 })).data, [id])
  const categories = useAsync(async () => await loadCategories(), [])
  // Collision detection (docs/console-app.md): who else is here, and replies written while drafting.
  const presence = usePresence(id, isStaff)
  const collision = useReplyCollision(comments.data, user?.id, comments.reload)
  const composerBox = useRef<HTMLDivElement>(null)

  useEffect(() => subscribeToChanges(() => { ticket.reload(); comments.reload(); history.reload() }), [id])

  // `j` / `k` next / previous ticket, `s` status, `a` assign, `r` reply, `n` note (listed under `?`).
  useTicketShortcuts(id, isStaff)

  const historyNames = useMemo(() => ({
    categories: new Map((categories.data ?? []).map((category) => [category.id, category.name])),
    fields: new Map((categories.data ?? []).flatMap((category) => (category.fields ?? []).map((field) => [String(field.id), field.title] as [string, string])))
  }), [categories.data])

  const fieldTitles = useMemo(() => {
    const titles = new Map<string, string>()
    for (const category of categories.data ?? []) for (const field of category.fields ?? []) titles.set(String(field.id), field.title)
    return titles
  }, [categories.data])

  if (ticket.data === undefined) {
    return ticket.error !== undefined
      ? <section><h1>{t('ticket.loadFailed')}</h1><ErrorBanner error={ticket.error} /></section>
      : <Loading />
  }
  const current = ticket.data
  const answers = Object.entries(current.additional.fields ?? {})
  const owner = current.user_id === user?.id
  const mayComment = isStaff || owner
  const refresh = () => { ticket.reload(); comments.reload(); history.reload() }

  return (
    <div class="ticket-layout">
      <section class="ticket-main" aria-labelledby="ticket-title">
        <p><Link href={isStaff ? '/' : '/portal'}>{isStaff ? t('ticket.backToInbox') : t('ticket.backToMyTickets')}</Link></p>
        <h1 id="ticket-title">#{current.id} {current.title}</h1>
        {isStaff ? <PresenceBar others={presence.others} /> : null}
        <p class="ticket-meta">
          <StatusBadge status={current.status} />
          {isStaff ? <> <SlaBadge ticket={current} />{' '}<PriorityBadge priority={current.priority} /></> : null}
          {' '}{current.category?.name ?? ''}
          {' · '}{t('ticket.openedBy', { name: personName(current.user) })}{' · '}<DateTime value={current.created_at} />
        </p>
        <MergedBanner ticket={current} staff={isStaff} onChanged={refresh} />
        {owner && !isStaff ? <TicketPrivacy ticket={current} onChanged={ticket.reload} /> : null}
        <article class="entry entry-reply entry-first" aria-label={t('thread.original')}>
          <Prose html={current.body} />
          <AttachmentList attachments={current.attachments} />
        </article>
        {answers.length > 0 || current.additional.purchase_code !== undefined
          ? (
            <section class="panel" aria-labelledby="answers-title">
              <h2 id="answers-title">{t('ticket.fieldAnswers')}</h2>
              <dl class="details">
                {answers.map(([fieldId, value]) => <Fragment key={fieldId}><dt>{fieldTitles.get(fieldId) ?? t('ticket.fieldFallback', { id: fieldId })}</dt><dd>{value}</dd></Fragment>)}
                {current.additional.purchase_code !== undefined ? <><dt>{t('ticket.purchaseCode')}</dt><dd>{current.additional.purchase_code}</dd></> : null}
              </dl>
            </section>
            )
          : null}
        <h2>{t('thread.title')}</h2>
        <ErrorBanner error={comments.error} />
        {comments.data === undefined && comments.loading ? <Loading /> : null}
        {comments.data !== undefined && comments.data.length === 0 ? <p class="muted">{t('thread.empty')}</p> : null}
        <div class="thread" aria-live="polite">
          {interleave(comments.data ?? [], history.data ?? []).map((item) => 'comment' in item
            ? <ThreadEntry key={`c${item.comment.id}`} comment={item.comment} staff={isStaff} onChanged={comments.reload} />
            : <HistoryLine key={`h${item.change.id}`} entry={item.change} names={historyNames} />)}
        </div>
        {mayComment ? <SatisfactionPanel ticket={current} staff={isStaff} /> : null}
        {mayComment && isStaff
          ? <CollisionWarning newer={collision.newer} blocked={collision.blocked} onReview={collision.review} onSendAnyway={() => { collision.sendAnyway(); composerBox.current?.querySelector('form')?.requestSubmit() }} />
          : null}
        {mayComment
          ? (
            <div ref={composerBox} onInput={(e) => { if ((e.target as HTMLElement).matches('textarea, [contenteditable], [contenteditable] *')) { presence.typing(); collision.began() } }}>
              <Composer ticketId={current.id} staff={isStaff} closed={current.status === 3} autoFocus={focusComposer} collision={isStaff ? collision : undefined} onSent={() => { collision.sent(); presence.idle(); refresh() }} />
            </div>
            )
          : <p class="muted">{t('ticket.readOnly')}</p>}
      </section>
      {isStaff
        ? (
          <aside class="ticket-side" aria-label={t('ticket.sidebar')}>
            <MacroPicker ticketId={current.id} onApplied={refresh} />
            <TicketControls ticket={current} categories={categories.data ?? []} onChanged={refresh} />
            <TicketMergeActions ticket={current} comments={comments.data ?? []} onChanged={refresh} />
            {can('manage_customers') ? <CustomerPanel customerId={current.user_id} /> : null}
          </aside>
          )
        : null}
    </div>
  )
}
