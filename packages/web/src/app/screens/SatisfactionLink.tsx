import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { useAsync } from '../hooks.js'
import { ErrorBanner, Loading } from '../components/ui.js'
import { RatingForm } from '../components/Satisfaction.js'
import { t } from '../../messages/index.js'
import type { LinkSatisfaction, SatisfactionRating } from '../types.js'

const REASONS = {
  disabled: 'satisfaction.reason.disabled',
  'not-closed': 'satisfaction.reason.notClosed',
  superseded: 'satisfaction.reason.superseded',
  'no-resolution': 'satisfaction.reason.noResolution'
} as const

/**
 * The page a closing mail's rating link opens (`/satisfaction#token=…&rating=good`),
 * signed in or not: it shows the ticket and the survey with the mailed choice
 * preselected, and rates only when the customer confirms (mail scanners and
 * link previewers open links, and must rate nothing). The token stays in the
 * fragment: it never reaches a server's logs or a Referer.
 */
export default function SatisfactionLink () {
  const [params] = useState(() => new URLSearchParams(window.location.hash.slice(1)))
  const token = params.get('token') ?? ''
  const mailed = params.get('rating')
  const link = useAsync(async () => (await api.post<{ data: LinkSatisfaction }>('/satisfaction/link', { token })).data, [token])
  const view = link.data
  const send = async (rating: 'good' | 'bad', comment: string) =>
    (await api.put<{ data: SatisfactionRating }>('/satisfaction/link', { token, rating, comment })).data

  return (
    <section class="narrow">
      <h1>{t('satisfaction.pageTitle')}</h1>
      {token === '' ? <p class="banner banner-error" role="alert">{t('satisfaction.noToken')}</p> : null}
      <ErrorBanner error={link.error} />
      {view === undefined && link.loading && token !== '' ? <Loading /> : null}
      {view !== undefined
        ? (
          <>
            <p>{t('satisfaction.about', { id: view.ticket.id, title: view.ticket.title })}</p>
            {view.can_rate
              ? (
                <RatingForm
                  survey={view.survey}
                  rating={mailed === 'good' || mailed === 'bad' ? mailed : (view.rating?.rating ?? null)}
                  comment={view.rating?.comment ?? ''}
                  rated={view.rating !== null}
                  send={send}
                />
                )
              : <p class="muted">{view.reason !== null ? t(REASONS[view.reason]) : ''}</p>}
          </>
          )
        : null}
    </section>
  )
}
