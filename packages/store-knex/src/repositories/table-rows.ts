import { insertId, now, type RepositoryContext } from './repository-context.js'

/**
 * The plain writes of a table whose rows have an integer `id`, `created_at` and
 * `updated_at`, done one way for every repository: inserts stamped with both
 * times, updates with a new `updated_at`, deletes and existence by id.
 */
export function tableRows (ctx: RepositoryContext, table: string) {
  return {
    /** Inserts `values` stamped now; returns them with the new id and the stamps. */
    async insert<T extends object> (values: T): Promise<T & { id: number, created_at: string, updated_at: string }> {
      const at = now(ctx)
      const stamped = { ...values, created_at: at, updated_at: at }
      return { id: await insertId(ctx.db(table).insert(stamped)), ...stamped }
    },
    /** Updates row `id` with `values` and a new `updated_at`; false when there is no such row. */
    async update (id: number, values: object): Promise<boolean> {
      return await ctx.db(table).where('id', id).update({ ...values, updated_at: now(ctx) }) > 0
    },
    /** Deletes row `id`; false when there was none. */
    async delete (id: number): Promise<boolean> {
      return await ctx.db(table).where('id', id).delete() > 0
    },
    /** The ids among `ids` that exist. */
    async existingIds (ids: number[]): Promise<number[]> {
      if (ids.length === 0) return []
      const rows = await ctx.db(table).select('id').whereIn('id', ids) as Array<{ id: number }>
      return rows.map((r) => r.id)
    }
  }
}
