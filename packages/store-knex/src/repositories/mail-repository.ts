import { mailList, type Attachment, type MailMessage, type MailRepository, type MailThread } from '@helpdesk/core'
import { listPage, type ListMapping } from '../list/list-mapping.js'
import { attachmentColumns, attachmentFromRow } from '../rows/ticket-rows.js'
import { insertMany, now, type RepositoryContext } from './repository-context.js'

const messageColumns = [
  'id', 'direction', 'status', 'kind', 'message_id', 'ticket_id', 'comment_id', 'user_id', 'author_id', 'sender', 'recipient',
  'subject', 'error', 'attempts', 'unsubscribe_token', 'created_at', 'updated_at', 'sent_at'
].map((c) => `mail_messages.${c}`)

function messageFromRow (row: MailMessage): MailMessage {
  return { ...row, id: Number(row.id), attempts: Number(row.attempts) }
}

/** The mail list (`mailList`) on `mail_messages`: read along (direction, status, id) and (ticket_id, id). */
const mailMapping: ListMapping<typeof mailList, MailMessage, MailMessage> = {
  spec: mailList,
  sorts: { id: 'mail_messages.id' },
  partial: {},
  exact: { status: { column: 'mail_messages.status', type: 'string' }, ticket: { column: 'mail_messages.ticket_id', type: 'int' } },
  includes: {},
  idColumn: 'mail_messages.id',
  map: messageFromRow
}

export function createMailRepository (ctx: RepositoryContext): MailRepository {
  const { db } = ctx
  const threads = (): ReturnType<typeof db> => db('mail_threads').select('ticket_id', 'reply_token', 'root_message_id')

  return {
    async findThread (ticketId) {
      return (await threads().where('ticket_id', ticketId).first() as MailThread | undefined) ?? null
    },
    async findThreadByToken (token) {
      return (await threads().where('reply_token', token).first() as MailThread | undefined) ?? null
    },
    async ensureThread (thread) {
      await db('mail_threads').insert({ ...thread, created_at: now(ctx) }).onConflict('ticket_id').ignore()
      return await threads().where('ticket_id', thread.ticket_id).first() as MailThread
    },
    async createOutbound (mails) {
      if (mails.length === 0) return []
      const at = now(ctx)
      // In batches: one statement for every recipient of a large audience would pass the bound-parameter limit.
      const ids = await insertMany(db, 'mail_messages', mails.map((m) => ({
        ...m, direction: 'out', status: 'pending', attempts: 0, created_at: at, updated_at: at
      })), 200)
      return ids.map(Number)
    },
    async createInbound (mail) {
      const at = now(ctx)
      const rows = await db('mail_messages').insert({
        ...mail, direction: 'in', status: 'received', attempts: 1, created_at: at, updated_at: at
      }).onConflict('dedupe_key').ignore().returning('id') as Array<{ id: number }>
      return rows[0] === undefined ? null : Number(rows[0].id)
    },
    async findById (id) {
      const row = await db('mail_messages').select(messageColumns).where('id', id).first() as MailMessage | undefined
      return row === undefined ? null : messageFromRow(row)
    },
    async update (id, patch) {
      await db('mail_messages').where('id', id).update({ ...patch, updated_at: now(ctx) })
    },
    async updateIf (id, status, patch) {
      return Number(await db('mail_messages').where({ id, status }).update({ ...patch, updated_at: now(ctx) })) > 0
    },
    async list (direction, query) {
      return await listPage(db, ctx.dialect, db('mail_messages').select(messageColumns).where('mail_messages.direction', direction), mailMapping, query)
    },
    async raw (id) {
      const row = await db('mail_messages').select('raw').where({ id, direction: 'in' }).first() as { raw: Buffer | null } | undefined
      return row?.raw == null ? null : Buffer.from(row.raw)
    },
    async ticketOfMessageIds (ids) {
      if (ids.length === 0) return null
      const message = await db('mail_messages').select('ticket_id').whereIn('message_id', ids).whereNotNull('ticket_id')
        .orderBy('id', 'desc').first() as { ticket_id: number } | undefined
      if (message !== undefined) return Number(message.ticket_id)
      const thread = await db('mail_threads').select('ticket_id').whereIn('root_message_id', ids).first() as { ticket_id: number } | undefined
      return thread === undefined ? null : Number(thread.ticket_id)
    },
    async isOutboundMessageId (id) {
      const sent = await db('mail_messages').select('id').where({ message_id: id, direction: 'out' }).first()
      if (sent !== undefined) return true
      return await db('mail_threads').select('ticket_id').where('root_message_id', id).first() !== undefined
    },
    async messageIdsOfTicket (ticketId, limit) {
      const rows = await db('mail_messages').select('message_id').max({ last: 'id' }).where('ticket_id', ticketId).whereNotNull('message_id')
        .groupBy('message_id').orderBy('last', 'desc').limit(limit) as Array<{ message_id: string }>
      return rows.map((r) => r.message_id).reverse()
    },
    async countInboundSince (sender, since) {
      const row = await db('mail_messages').count({ total: '*' }).where({ direction: 'in', sender }).where('created_at', '>=', since).first() as { total: number | string } | undefined
      return Number(row?.total ?? 0)
    },
    async findByUnsubscribeToken (token) {
      const row = await db('mail_messages').select(messageColumns).where('unsubscribe_token', token).first() as MailMessage | undefined
      return row === undefined ? null : messageFromRow(row)
    },
    async addParticipant (ticketId, userId) {
      await db('mail_participants').insert({ ticket_id: ticketId, user_id: userId }).onConflict(['ticket_id', 'user_id']).ignore()
    },
    async participantIds (ticketId) {
      const rows = await db('mail_participants').select('user_id').where('ticket_id', ticketId) as Array<{ user_id: number }>
      return rows.map((r) => Number(r.user_id))
    },
    async optOut (userId) {
      await db('mail_opt_outs').insert({ user_id: userId, created_at: now(ctx) }).onConflict('user_id').ignore()
    },
    async optedOut (ids) {
      if (ids.length === 0) return []
      const rows = await db('mail_opt_outs').select('user_id').whereIn('user_id', ids) as Array<{ user_id: number }>
      return rows.map((r) => Number(r.user_id))
    },
    async attachmentsOf (ticketId, commentId) {
      const qb = db('attachments').select(attachmentColumns).where('attachments.ticket_id', ticketId)
      void (commentId === null ? qb.whereNull('attachments.comment_id') : qb.where('attachments.comment_id', commentId))
      const rows = await qb.orderBy([{ column: 'attachments.created_at' }, { column: 'attachments.id' }]) as Attachment[]
      return rows.map(attachmentFromRow)
    },
    async replyKeys () {
      const rows = await db('mail_reply_keys').select('id', 'secret').whereNull('retired_at').orderBy('id', 'desc') as Array<{ id: number, secret: string }>
      return rows.map((r) => ({ id: Number(r.id), secret: r.secret }))
    },
    async ensureReplyKey (secret) {
      // A fixed id: instances making the first key at once end with one.
      await db('mail_reply_keys').insert({ id: 1, secret, created_at: now(ctx) }).onConflict('id').ignore()
    },
    async rotateReplyKey (secret, retireOlder) {
      return await db.transaction(async (trx) => {
        const at = now(ctx)
        const [top] = await trx('mail_reply_keys').max({ id: 'id' }) as Array<{ id: number | string | null }>
        // Explicit ids: the key inserted by ensureReplyKey (id 1) leaves PostgreSQL's sequence behind.
        const id = Number(top?.id ?? 0) + 1
        await trx('mail_reply_keys').insert({ id, secret, created_at: at })
        const retired = retireOlder ? await trx('mail_reply_keys').where('id', '<', id).whereNull('retired_at').update({ retired_at: at }) : 0
        return { id, retired: Number(retired) }
      })
    },
    async people (ids) {
      if (ids.length === 0) return []
      const rows = await db('users').select('id', 'email', 'first_name', 'last_name', 'role', 'status').whereIn('id', ids) as Array<{ id: number, email: string, first_name: string, last_name: string, role: number, status: number }>
      return rows.map((r) => ({ ...r, id: Number(r.id), role: Number(r.role), status: Number(r.status) }))
    },
    async recordSendAttempt (id, patch) {
      await db('mail_messages').where('id', id).update({ ...patch, attempts: db.raw('?? + 1', ['attempts']), updated_at: now(ctx) })
    }
  }
}
