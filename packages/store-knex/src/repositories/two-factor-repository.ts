import type { TwoFactorRecord, TwoFactorRepository } from '@helpdesk/core'
import { now, type RepositoryContext } from './repository-context.js'

const columns = ['user_id', 'secret', 'confirmed_at', 'last_step', 'failures', 'failures_since']

export function createTwoFactorRepository (ctx: RepositoryContext): TwoFactorRepository {
  const { db } = ctx
  return {
    async find (userId) {
      const row = await db('two_factor').select(columns).where('user_id', userId).first() as (Omit<TwoFactorRecord, 'last_step'> & { last_step: number | string | null }) | undefined
      if (row === undefined) return null
      return { ...row, last_step: row.last_step === null ? null : Number(row.last_step), failures: Number(row.failures) }
    },
    async begin (userId, secret) {
      return await db.transaction(async (trx) => {
        const existing = await trx('two_factor').select('confirmed_at').where('user_id', userId).first() as { confirmed_at: string | null } | undefined
        if (existing?.confirmed_at != null) return false
        const at = now(ctx)
        if (existing === undefined) {
          await trx('two_factor').insert({ user_id: userId, secret, confirmed_at: null, last_step: null, failures: 0, failures_since: null, created_at: at, updated_at: at })
        } else {
          await trx('two_factor').where('user_id', userId).update({ secret, last_step: null, updated_at: at })
        }
        await trx('two_factor_recovery_codes').where('user_id', userId).delete()
        return true
      })
    },
    async useStep (userId, step, confirm) {
      const at = now(ctx)
      const qb = db('two_factor').where('user_id', userId).where((w) => { void w.whereNull('last_step').orWhere('last_step', '<', step) })
      if (confirm) void qb.whereNull('confirmed_at')
      else void qb.whereNotNull('confirmed_at')
      const updated = await qb.update({ last_step: step, updated_at: at, ...(confirm ? { confirmed_at: at } : {}) })
      return updated === 1
    },
    async recordFailure (userId, at, windowStart) {
      await db('two_factor').where('user_id', userId).where((w) => { void w.whereNull('failures_since').orWhere('failures_since', '<=', windowStart) })
        .update({ failures: 0, failures_since: at })
      await db('two_factor').where('user_id', userId).increment('failures', 1)
      const row = await db('two_factor').select('failures').where('user_id', userId).first() as { failures: number } | undefined
      return Number(row?.failures ?? 0)
    },
    async clearFailures (userId) {
      await db('two_factor').where('user_id', userId).where('failures', '>', 0).update({ failures: 0, failures_since: null })
    },
    async remove (userId) {
      return await db.transaction(async (trx) => {
        await trx('two_factor_recovery_codes').where('user_id', userId).delete()
        return await trx('two_factor').where('user_id', userId).delete() > 0
      })
    },
    async replaceRecoveryCodes (userId, hashes) {
      await db.transaction(async (trx) => {
        await trx('two_factor_recovery_codes').where('user_id', userId).delete()
        if (hashes.length > 0) await trx('two_factor_recovery_codes').insert(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
      })
    },
    async useRecoveryCode (userId, hash) {
      return await db('two_factor_recovery_codes').where({ user_id: userId, code_hash: hash }).delete() === 1
    },
    async countRecoveryCodes (userId) {
      const [row] = await db('two_factor_recovery_codes').where('user_id', userId).count({ count: '*' })
      return Number(row?.count ?? 0)
    },
    async enabledAmong (userIds) {
      if (userIds.length === 0) return []
      return (await db('two_factor').select('user_id').whereIn('user_id', userIds).whereNotNull('confirmed_at') as Array<{ user_id: number }>).map((r) => r.user_id)
    }
  }
}
