import { useId, useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAction, useAsync } from '../hooks.js'
import { DateTime, ErrorBanner, Field, StatusMessage } from './ui.js'
import { t } from '../../messages/index.js'
import type { SatisfactionRating, SatisfactionSurvey, Ticket, TicketSatisfaction } from '../types.js'

type Rating = 'good' | 'bad'

/**
 * The survey's question, its two choices (radio buttons, one preselected when
 * a link or an earlier rating names it) and an optional comment; nothing is
 * sent before the button is pressed. Used by the rating link's page and the
 * portal's closed ticket.
 */
export function RatingForm ({ survey, rating, comment, rated, send }: {
  survey: SatisfactionSurvey
  rating: Rating | null
  comment: string
  /** Whether a rating exists already (the button then says "change"). */
  rated: boolean
  send: (rating: Rating, comment: string) => Promise<unknown>
}) {
  const name = useId()
  const [choice, setChoice] = useState<Rating | null>(rating)
  const [text, setText] = useState(comment)
  const [done, setDone] = useState('')
  const submit = useAction(async () => {
    if (choice === null) return
    setDone('')
    await send(choice, text)
    setDone(t('satisfaction.thanks'))
  })
  return (
    <form class="rating-form" onSubmit={(event) => { event.preventDefault(); void submit.run() }} noValidate>
      <ErrorBanner error={submit.error} />
      <fieldset class="rating-choice">
        <legend>{survey.question}</legend>
        {(['good', 'bad'] as const).map((value) => (
          <label key={value} class={`rating-option rating-${value}`}>
            <input type="radio" name={name} value={value} checked={choice === value} onChange={() => { setChoice(value); setDone('') }} />
            <span>{value === 'good' ? survey.good_label : survey.bad_label}</span>
          </label>
        ))}
      </fieldset>
      <Field label={t('satisfaction.comment')} name="comment" multiline value={text} onValue={(value) => { setText(value); setDone('') }} error={submit.error} maxLength={2000} />
      <button type="submit" class="primary" disabled={submit.pending || choice === null}>{rated ? t('satisfaction.change') : t('satisfaction.send')}</button>
      {done !== '' ? <StatusMessage message={done} /> : null}
    </form>
  )
}

/** One given rating, as a line: the verdict, who and how, when, and the comment. */
export function RatingSummary ({ rating, survey }: { rating: SatisfactionRating, survey: SatisfactionSurvey | undefined }) {
  const label = rating.rating === 'good' ? (survey?.good_label ?? t('satisfaction.good')) : (survey?.bad_label ?? t('satisfaction.bad'))
  return (
    <li class="rating-summary">
      <span class={`badge badge-rating-${rating.rating}`}>{label}</span>
      <span class="muted"> · {t('satisfaction.closing', { n: rating.resolution })} · <DateTime value={rating.updated_at} />{rating.channel === 'mail' ? ` · ${t('satisfaction.byMail')}` : ''}</span>
      {rating.comment !== null ? <blockquote class="rating-comment">{rating.comment}</blockquote> : null}
    </li>
  )
}

/**
 * The ticket page's survey: its owner rates a closed ticket (or changes the
 * rating until it reopens); staff and the owner see the ratings given.
 * Reloaded with the ticket (a live `Tickets.SatisfactionRated` reloads it).
 */
export function SatisfactionPanel ({ ticket, staff }: { ticket: Ticket, staff: boolean }) {
  // An open ticket never rated (most tickets, read with `include=satisfaction`) costs no request.
  const asks = ticket.status === 3 || (ticket.satisfaction ?? null) !== null
  const state = useAsync(async () => asks ? (await api.get<{ data: TicketSatisfaction }>(`/tickets/${ticket.id}/satisfaction`)).data : undefined, [ticket])
  const view = state.data
  if (view === undefined) return null
  // The rating being given is in the form; the list shows the others (staff: all).
  const given = view.can_rate ? view.ratings.filter((r) => r.resolution !== view.resolution) : view.ratings
  if (!view.can_rate && given.length === 0) return null
  const send = async (rating: Rating, comment: string) => {
    await api.put(`/tickets/${ticket.id}/satisfaction`, { rating, comment })
    state.reload()
  }
  return (
    <section class="panel satisfaction" aria-labelledby="satisfaction-title">
      <h2 id="satisfaction-title">{staff ? t('satisfaction.staffTitle') : t('satisfaction.title')}</h2>
      {view.can_rate
        ? <RatingForm key={view.resolution} survey={view.survey} rating={view.rating?.rating ?? null} comment={view.rating?.comment ?? ''} rated={view.rating !== null} send={send} />
        : null}
      {given.length > 0
        ? <ul class="rating-list" aria-label={t('satisfaction.given')}>{given.map((r) => <RatingSummary key={r.resolution} rating={r} survey={view.survey} />)}</ul>
        : null}
    </section>
  )
}
