import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { ServiceContext } from '../context.js'
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../errors.js'
import type { FileStorage } from '../ports.js'
import { formatDateTime } from '../time.js'
import { ensure } from '../users/user-policy.js'
import { requirePerson, type ActorInput, type PersonActor } from '../users/actor.js'
import { ATTACHMENT_MAX_BYTES, DEFAULT_UPLOAD_QUOTA, displayName, UNLINKED_ATTACHMENT_TTL_MS, type Attachment, type UploadQuota } from './attachment.js'
import { inspectUpload } from './attachment-upload.js'
import { canDeleteAttachment, canSeeComment, canSeeTicket, seesAttachmentDirectly, ticketScope } from './ticket-policy.js'

/** Removes stored files; one that cannot be removed stays an orphan rather than failing a committed change. */
export async function removeFiles (files: FileStorage, keys: readonly string[]): Promise<void> {
  await Promise.allSettled(keys.map(async (key) => { await files.delete(key) }))
}

/** 422 on `file`: the uploader holds as much unlinked upload as `quota` allows. */
function overQuota (quota: UploadQuota): ValidationError {
  const megabytes = Math.floor(quota.maxBytes / 2 ** 20)
  return ValidationError.field('file', `Your uploads not yet attached to a ticket or comment may total at most ${quota.maxFiles} files and ` +
    `${megabytes} MB: attach or delete some before uploading more (unattached uploads are removed after 24 hours).`)
}

/**
 * Attachments: uploaded first (unlinked), then linked by id when a ticket or
 * comment is created. Seen by the uploader, staff, and whoever can see the
 * ticket or comment it belongs to (CONTRACT §12); anyone else gets 404.
 */
export class AttachmentService {
  constructor (private readonly ctx: ServiceContext) {}

  /**
   * Stores an upload: the type is sniffed from the bytes, the stored name is
   * generated, and more than 30 MB fails with PayloadTooLargeError (413)
   * while streaming, leaving no file behind. The uploader's unlinked uploads
   * must stay within `quota` (422 on `file`): checked before anything is
   * stored, enforced while streaming (no more bytes than the room left are
   * written), and again atomically with the row, so a burst cannot pass it.
   */
  async upload (caller: ActorInput, file: { name?: string | undefined, content: Readable }, quota: UploadQuota = DEFAULT_UPLOAD_QUOTA): Promise<Attachment> {
    const actor = requirePerson(caller)
    const { store } = this.ctx
    const used = await store.attachments.unlinkedUsage(actor.id)
    if (used.files >= quota.maxFiles || used.bytes >= quota.maxBytes) throw overQuota(quota)
    const room = quota.maxBytes - used.bytes
    const quotaBinds = room < ATTACHMENT_MAX_BYTES
    const refusal = (error: unknown): unknown => quotaBinds && error instanceof PayloadTooLargeError ? overQuota(quota) : error
    const inspected = await inspectUpload(file.content, Math.min(ATTACHMENT_MAX_BYTES, room)).catch((error: unknown) => { throw refusal(error) })
    const id = randomUUID()
    const stored = await this.ctx.files.write(inspected.content, `${id}.${inspected.extension}`).catch((error: unknown) => { throw refusal(error) })
    try {
      const created = await store.attachments.createWithinQuota({
        id,
        user_id: actor.id,
        name: displayName(file.name),
        file_name: stored.key,
        mime_type: inspected.mime_type,
        size: stored.size
      }, quota)
      if (created === null) throw overQuota(quota)
      return created
    } catch (error) {
      await removeFiles(this.ctx.files, [stored.key])
      throw error
    }
  }

  async view (caller: ActorInput, id: string): Promise<Attachment> {
    const actor = requirePerson(caller)
    const attachment = await this.ctx.store.attachments.findById(id)
    if (attachment === null || !await this.canSee(actor, attachment)) throw new NotFoundError('Attachment')
    return attachment
  }

  /** The attachment and its bytes; 404 when its file is gone too. */
  async download (caller: ActorInput, id: string): Promise<{ attachment: Attachment, content: Readable }> {
    const actor = requirePerson(caller)
    const attachment = await this.view(actor, id)
    const content = await this.ctx.files.read(attachment.file_name)
    if (content === null) throw new NotFoundError('Attachment file')
    return { attachment, content }
  }

  /** Deletes the attachment and its file: its uploader and administrators. */
  async delete (caller: ActorInput, id: string): Promise<void> {
    const actor = requirePerson(caller)
    const attachment = await this.view(actor, id)
    ensure(canDeleteAttachment(actor, attachment))
    if (await this.ctx.store.attachments.delete(id)) await removeFiles(this.ctx.files, [attachment.file_name])
  }

  /**
   * Deletes attachments never linked to a ticket or comment within 24 hours
   * (CONTRACT §12), in batches; returns how many went. For a scheduled job.
   */
  async pruneUnlinked (batchSize = 500): Promise<number> {
    const before = formatDateTime(new Date(this.ctx.clock.now().getTime() - UNLINKED_ATTACHMENT_TTL_MS))
    let pruned = 0
    for (;;) {
      const fileNames = await this.ctx.store.attachments.deleteUnlinkedBefore(before, batchSize)
      await removeFiles(this.ctx.files, fileNames)
      pruned += fileNames.length
      if (fileNames.length < batchSize) return pruned
    }
  }

  private async canSee (actor: PersonActor, attachment: Attachment): Promise<boolean> {
    if (seesAttachmentDirectly(actor, attachment)) return true
    if (attachment.ticket_id === null) return false
    const { store } = this.ctx
    const ticket = await store.tickets.findById(attachment.ticket_id)
    if (ticket === null) return false
    const scope = await ticketScope(store, actor)
    if (!canSeeTicket(scope.tickets, ticket)) return false
    if (attachment.comment_id === null) return true
    const comment = await store.comments.findById(attachment.comment_id)
    return comment !== null && canSeeComment(scope.comments, comment, ticket)
  }
}
