import type { ServiceContext } from './context.js'

/**
 * The few operations on a help desk that are nobody's use case: they serve
 * the process that runs it (readiness checks, the CLI's first administrator,
 * bulk seeding), never a request's actor. Nothing here checks a permission,
 * so no door may hand it to its callers. Everything else goes through the
 * services, which apply the domain's rules.
 */
export interface Maintenance {
  /** Resolves when the database answers; rejects otherwise (readiness probes). */
  ping(): Promise<void>
  /**
   * Reorganises indexes after bulk writes (seeding, large imports): search
   * indexes compacted, the planner's statistics refreshed. Safe at any time.
   */
  optimize(): Promise<void>
  /** Whether any administrator exists (an empty database gets a first one). */
  hasAdministrator(): Promise<boolean>
  /**
   * The configured hasher's hash of `password`, computed once and shared by
   * people created in bulk (`customers.createMany`, `agents.createMany`).
   */
  hashPassword(password: string): Promise<string>
}

export function createMaintenance (ctx: ServiceContext): Maintenance {
  return {
    ping: async () => { await ctx.store.ping() },
    optimize: async () => { await ctx.store.optimize() },
    hasAdministrator: async () => (await ctx.store.users.staffIds({ admins: true })).length > 0,
    hashPassword: async (password) => await ctx.hasher.hash(password)
  }
}
