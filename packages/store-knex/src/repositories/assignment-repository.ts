import { TicketStatus, type AssignmentMode, type AssignmentRepository } from '@helpdesk/core'
import { bool } from '../rows/row-values.js'
import type { RepositoryContext } from './repository-context.js'

/** Assignment modes of categories and agents' availability (migration 0038 columns). */
export function createAssignmentRepository (ctx: RepositoryContext): AssignmentRepository {
  const { db } = ctx
  return {
    async modeOf (categoryId) {
      const row = await db('categories').select('assignment').where('id', categoryId).first() as { assignment: string } | undefined
      return row === undefined ? null : row.assignment as AssignmentMode
    },
    async setMode (categoryId, mode) {
      return await db('categories').where('id', categoryId).update({ assignment: mode }) > 0
    },
    async availabilityOf (userId) {
      const row = await db('users').select('available').where('id', userId).first() as { available: number | boolean } | undefined
      return row === undefined ? null : bool(row.available)
    },
    async setAvailable (userId, available) {
      await db('users').where('id', userId).update({ available })
    },
    async ticketsToReassign (userId, limit) {
      const rows = await db('tickets').select('tickets.id', 'categories.assignment')
        .join('categories', 'categories.id', 'tickets.category_id')
        .where('tickets.assigned_agent_id', userId)
        .whereIn('tickets.status', [TicketStatus.Open, TicketStatus.Pending])
        .whereNot('categories.assignment', 'manual')
        .orderBy('tickets.id')
        .limit(limit) as Array<{ id: number, assignment: string }>
      return rows.map((row) => ({ ticket_id: row.id, mode: row.assignment as Exclude<AssignmentMode, 'manual'> }))
    }
  }
}
