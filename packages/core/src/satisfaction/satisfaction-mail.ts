import type { Ticket } from '../tickets/ticket.js'
import type { SatisfactionService } from './satisfaction-service.js'

/** What the closing mail's templates get for the survey: `{{satisfaction.good_url}}`..., and the ready blocks. */
export interface ClosingMailSurvey {
  satisfaction: { question: string, good_label: string, bad_label: string, good_url: string, bad_url: string }
  satisfaction_text: string
  satisfaction_html: string
}

function escapeHtml (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

const BUTTON = 'display:inline-block;padding:8px 14px;margin:0 8px 8px 0;border:1px solid #888;border-radius:4px;text-decoration:none;color:#222'

/**
 * The two rating links of a closing mail to the ticket's owner: to the
 * console's page `/satisfaction#token=…&rating=good|bad`, which shows the
 * choice and asks to confirm it (a GET changes nothing: mail scanners and
 * link previewers open links). The token sits in the fragment, so it never
 * reaches a server's logs or a `Referer`. Null when the mail is not to the
 * owner, surveys are off, the ticket is no longer closed, or no console
 * address is known (`consoleOf` answers '').
 */
export async function closingMailSurvey (
  satisfaction: SatisfactionService, ticket: Pick<Ticket, 'id' | 'user_id' | 'status'>, recipientId: number | null, consoleOf: (path: string) => string
): Promise<ClosingMailSurvey | null> {
  if (recipientId !== ticket.user_id || consoleOf('/') === '') return null
  const link = await satisfaction.linkToken(ticket)
  if (link === null) return null
  const url = (rating: 'good' | 'bad'): string => consoleOf(`/satisfaction#token=${link.token}&rating=${rating}`)
  const { question, good_label: good, bad_label: bad } = link.survey
  const values = { question, good_label: good, bad_label: bad, good_url: url('good'), bad_url: url('bad') }
  return {
    satisfaction: values,
    satisfaction_text: `${question}\n${good}: ${values.good_url}\n${bad}: ${values.bad_url}\n\n`,
    satisfaction_html: `<div class="satisfaction"><p>${escapeHtml(question)}</p><p>` +
      `<a href="${escapeHtml(values.good_url)}" style="${BUTTON}">${escapeHtml(good)}</a>` +
      `<a href="${escapeHtml(values.bad_url)}" style="${BUTTON}">${escapeHtml(bad)}</a></p></div>`
  }
}
