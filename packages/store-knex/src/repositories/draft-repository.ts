import type { Knex } from 'knex'
import { draftList, type Attachment, type Draft, type DraftRepository, type Ticket, type WithIncludes } from '@helpdesk/core'
import { listPage, relationInclude, type ListMapping } from '../list/list-mapping.js'
import { bool } from '../rows/row-values.js'
import { attachmentColumns, attachmentFromRow, ticketColumns, ticketFromRow, type TicketRow } from '../rows/ticket-rows.js'
import { now, type RepositoryContext } from './repository-context.js'
import { whereTicketVisible } from './ticket-visibility.js'

type Item = WithIncludes<Draft>

interface DraftRow extends Omit<Draft, 'private' | 'attachments'> {
  private: boolean | number
}

const draftColumns = ['id', 'user_id', 'ticket_id', 'type', 'body', 'private', 'created_at', 'updated_at'].map((c) => `drafts.${c}`)

function draftFromRow (row: DraftRow): Draft {
  return {
    id: row.id,
    user_id: row.user_id,
    ticket_id: row.ticket_id,
    type: Number(row.type) as Draft['type'],
    body: row.body,
    private: bool(row.private),
    attachments: [],
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

async function ticketsByIds (db: Knex, ids: Array<number | string>): Promise<Ticket[]> {
  const rows = await db('tickets').select(ticketColumns).whereIn('tickets.id', ids) as TicketRow[]
  return rows.map(ticketFromRow)
}

/** The attachments of each draft, in one query for all of them. */
async function attachDraftAttachments (db: Knex, drafts: Draft[]): Promise<void> {
  if (drafts.length === 0) return
  const rows = await db('draft_attachments')
    .join('attachments', 'attachments.id', 'draft_attachments.attachment_id')
    .select([...attachmentColumns, 'draft_attachments.draft_id as draft_id'])
    .whereIn('draft_attachments.draft_id', drafts.map((d) => d.id))
    .orderBy([{ column: 'attachments.created_at' }, { column: 'attachments.id' }]) as Array<Attachment & { draft_id: number }>
  const byDraft = new Map<number, Attachment[]>()
  for (const { draft_id: draftId, ...row } of rows) {
    const list = byDraft.get(Number(draftId)) ?? []
    list.push(attachmentFromRow(row))
    byDraft.set(Number(draftId), list)
  }
  for (const draft of drafts) draft.attachments = byDraft.get(draft.id) ?? []
}

const mapping: ListMapping<typeof draftList, DraftRow, Item> = {
  spec: draftList,
  sorts: { updated_at: 'drafts.updated_at' },
  partial: {},
  exact: { type: { column: 'drafts.type', type: 'int' } },
  includes: { ticket: relationInclude<Item, Ticket>('ticket_id', ticketsByIds) },
  idColumn: 'drafts.id',
  map: (row) => draftFromRow(row) as Item
}

export function createDraftRepository (ctx: RepositoryContext): DraftRepository {
  const { db } = ctx
  const drafts = (): Knex.QueryBuilder => db('drafts').select(draftColumns)
  const find = async (database: Knex, userId: number, ticketId: number): Promise<Draft | null> => {
    const row = await database('drafts').select(draftColumns).where({ 'drafts.user_id': userId, 'drafts.ticket_id': ticketId }).first() as DraftRow | undefined
    if (row === undefined) return null
    const draft = draftFromRow(row)
    await attachDraftAttachments(database, [draft])
    return draft
  }
  return {
    async find (userId, ticketId) {
      return await find(db, userId, ticketId)
    },
    async save ({ attachment_ids: attachmentIds, ...values }) {
      return await db.transaction(async (trx) => {
        const at = now(ctx)
        // One row per author and ticket, also when two saves race: the later one replaces the earlier.
        await trx('drafts').insert({ ...values, created_at: at, updated_at: at })
          .onConflict(['user_id', 'ticket_id']).merge(['type', 'body', 'private', 'updated_at'])
        const row = await trx('drafts').select('id').where({ user_id: values.user_id, ticket_id: values.ticket_id }).first() as { id: number }
        await trx('draft_attachments').where('draft_id', row.id).delete()
        if (attachmentIds.length > 0) {
          // An upload sits in one draft at most: one held by another draft of the author's moves here.
          await trx('draft_attachments').insert(attachmentIds.map((id) => ({ attachment_id: id.toLowerCase(), draft_id: row.id })))
            .onConflict('attachment_id').merge(['draft_id'])
        }
        return await find(trx, values.user_id, values.ticket_id) as Draft
      })
    },
    async delete (userId, ticketId) {
      return await db('drafts').where({ user_id: userId, ticket_id: ticketId }).delete() > 0
    },
    async count (userId) {
      const row = await db('drafts').where('user_id', userId).count({ n: '*' }).first() as { n: number | string } | undefined
      return Number(row?.n ?? 0)
    },
    async list (userId, visibility, query) {
      const base = drafts().join('tickets', 'tickets.id', 'drafts.ticket_id').where('drafts.user_id', userId)
      whereTicketVisible(base, visibility, ctx.dialect)
      const page = await listPage(db, ctx.dialect, base, mapping, query)
      await attachDraftAttachments(db, page.items)
      return page
    }
  }
}
