/** Automatic mails to one recipient allowed within the window (Zammad's figure, #4885). */
export const AUTOMATIC_MAIL_CAP = { limit: 30, windowMs: 10 * 60_000 }

/**
 * Whether one more automatic mail (a trigger's or an automation's reply) may
 * go to a recipient, given when the earlier ones in the window were sent: a
 * mail loop with another robot stops at the cap instead of filling both
 * mailboxes. The caller counts the recipient's automatic mails since
 * `now - windowMs` in the mail outbox (shared by every instance).
 */
export function automaticMailAllowed (sentInWindow: number, cap: { limit: number } = AUTOMATIC_MAIL_CAP): boolean {
  return sentInWindow < cap.limit
}
