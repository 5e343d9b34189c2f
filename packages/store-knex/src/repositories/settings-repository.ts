import type { SettingsRepository } from '@helpdesk/core'
import { now, type RepositoryContext } from './repository-context.js'

export function createSettingsRepository (ctx: RepositoryContext): SettingsRepository {
  const { db } = ctx
  return {
    async all () {
      const rows = await db('settings').select('key', 'value', 'updated_at').orderBy('key') as Array<{ key: string, value: string, updated_at: string }>
      return rows.map((row) => ({ key: row.key, value: JSON.parse(row.value) as unknown, updated_at: row.updated_at }))
    },
    async put (values) {
      const at = now(ctx)
      const rows = Object.entries(values).map(([key, value]) => ({ key, value: JSON.stringify(value), updated_at: at }))
      if (rows.length === 0) return
      await db.transaction(async (trx) => {
        await trx('settings').insert(rows).onConflict('key').merge(['value', 'updated_at'])
      })
    }
  }
}
