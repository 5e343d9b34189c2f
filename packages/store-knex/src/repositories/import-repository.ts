import type { Knex } from 'knex'
import type { ImportRepository, ImportSourceType } from '@helpdesk/core'
import { batches } from '../dialects/full-text.js'
import { importColumns, importFromRow, type ImportRow } from '../rows/import-row.js'
import { now, type RepositoryContext } from './repository-context.js'
import { tableRows } from './table-rows.js'

/** Where the local row of each kind lives: a mapping counts only while its row exists. */
const localTables: Record<ImportSourceType, string> = {
  category: 'categories', agent: 'users', customer: 'users', ticket: 'tickets', comment: 'comments'
}

/** Ids (or rows) per statement: under SQLite's bound-variable limit with room to spare. */
const CHUNK = 500

export function createImportRepository (ctx: RepositoryContext): ImportRepository {
  const { db } = ctx
  const table = tableRows(ctx, 'imports')
  const jobs = (): Knex.QueryBuilder => db('imports').select(importColumns)

  return {
    async create (job) {
      return (await this.findById((await table.insert(job)).id))!
    },
    async findById (id) {
      const row = await jobs().where('id', id).first() as ImportRow | undefined
      return row === undefined ? null : importFromRow(row)
    },
    async sourceOf (id) {
      const row = await db('imports').select('source').where('id', id).first() as { source: string | null } | undefined
      return row?.source ?? null
    },
    async claim (staleBefore) {
      // Compare-and-set on (status, updated_at): of instances racing for one job, one update matches.
      for (let attempt = 0; attempt < 10; attempt++) {
        const candidate = await db('imports').select('id', 'status', 'updated_at')
          .where('status', 'queued')
          .orWhere((w) => { void w.where('status', 'running').where('updated_at', '<', staleBefore) })
          .orderBy('id').first() as { id: number, status: string, updated_at: string } | undefined
        if (candidate === undefined) return null
        const taken = await db('imports')
          .where({ id: candidate.id, status: candidate.status, updated_at: candidate.updated_at })
          .update({ status: 'running', updated_at: now(ctx) })
        if (taken === 1) return await this.findById(candidate.id)
      }
      return null
    },
    async update (id, patch) {
      return await table.update(id, patch) ? await this.findById(id) : null
    },
    async localIds (type, externalIds) {
      const found = new Map<string, number>()
      for (const ids of batches([...new Set(externalIds)], CHUNK)) {
        const rows = await db('import_external_ids as x')
          .join(`${localTables[type]} as local`, 'local.id', 'x.local_id')
          .select('x.external_id', 'x.local_id')
          .where('x.source_type', type)
          .whereIn('x.external_id', ids) as Array<{ external_id: string, local_id: number }>
        for (const row of rows) found.set(row.external_id, row.local_id)
      }
      return found
    },
    async remember (type, importId, pairs) {
      const at = now(ctx)
      for (const part of batches(pairs, CHUNK)) {
        await db('import_external_ids')
          .insert(part.map(([externalId, localId]) => ({
            source_type: type, external_id: externalId, local_id: localId, import_id: importId, created_at: at
          })))
          .onConflict(['source_type', 'external_id'])
          .merge(['local_id', 'import_id', 'created_at'])
      }
    }
  }
}
