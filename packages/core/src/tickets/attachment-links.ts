import { ValidationError, type FieldErrors } from '../errors.js'
import type { Store } from '../store.js'
import { ATTACHMENT_ID_PATTERN, type AttachmentTarget } from './attachment.js'

const UUID = new RegExp(ATTACHMENT_ID_PATTERN)

/**
 * Checks the `attachments` of a new ticket or comment: each must be an
 * attachment the caller uploaded that is not linked yet, else 422 on
 * `attachments.N` (CONTRACT §6). Repeated ids count once.
 */
export async function checkAttachmentIds (store: Store, uploaderId: number, ids: readonly string[], errors: FieldErrors): Promise<string[]> {
  if (ids.length === 0) return []
  const wellFormed = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))]
  const found = new Map((await store.attachments.findByIds(wellFormed)).map((a) => [a.id.toLowerCase(), a]))
  ids.forEach((id, index) => {
    const attachment = found.get(id.toLowerCase())
    if (attachment === undefined || attachment.user_id !== uploaderId) {
      errors[`attachments.${index}`] = ['The selected attachment is invalid.']
    } else if (attachment.ticket_id !== null || attachment.comment_id !== null) {
      errors[`attachments.${index}`] = ['The attachment is already linked to a ticket or comment.']
    }
  })
  return [...new Set([...found.values()].map((a) => a.id))]
}

/** Links checked attachments inside the write's transaction; a concurrent link of the same file fails the whole write. */
export async function linkAttachments (tx: Store, uploaderId: number, ids: readonly string[], target: AttachmentTarget): Promise<void> {
  if (ids.length === 0) return
  const linked = await tx.attachments.link([...ids], uploaderId, target)
  if (linked !== ids.length) {
    throw ValidationError.field('attachments', 'An attachment was linked elsewhere meanwhile; please try again.')
  }
}
