import type { ServiceContext } from '../context.js'
import type { MarketplaceVerifier, PurchaseCodeStatus } from '../ports.js'

/** What a purchase code is worth: nothing, a valid purchase, or a valid purchase still in support. */
export type PurchaseStanding = 'invalid' | 'valid' | 'supported'

/** Results are kept this long per code, so reading the knowledge base does not call the marketplace every time. */
const CACHE_MS = 60_000
const CACHE_SIZE = 1000

interface Cached { status: PurchaseCodeStatus, expires: number }
const caches = new WeakMap<MarketplaceVerifier, Map<string, Cached>>()

async function verify (marketplace: MarketplaceVerifier, code: string, now: Date): Promise<PurchaseCodeStatus> {
  let cache = caches.get(marketplace)
  if (cache === undefined) caches.set(marketplace, cache = new Map())
  const hit = cache.get(code)
  if (hit !== undefined && hit.expires > now.getTime()) return hit.status
  const status = await marketplace.verifyPurchaseCode(code)
  cache.delete(code)
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  cache.set(code, { status, expires: now.getTime() + CACHE_MS })
  return status
}

/** `supportedUntil` as an instant: a Date, ISO 8601, or the API's UTC `YYYY-MM-DD HH:MM:SS`. */
export function supportEnd (supportedUntil: Date | string | null): Date | null {
  if (supportedUntil === null) return null
  if (supportedUntil instanceof Date) return Number.isNaN(supportedUntil.getTime()) ? null : supportedUntil
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(supportedUntil) ? `${supportedUntil.replace(' ', 'T')}Z` : supportedUntil
  const time = Date.parse(text)
  return Number.isNaN(time) ? null : new Date(time)
}

/** Asks the marketplace (through a short cache) what `code` is worth now. Throws when the marketplace does. */
export async function purchaseStanding (marketplace: MarketplaceVerifier, code: string, now: Date): Promise<PurchaseStanding> {
  const status = await verify(marketplace, code.trim(), now)
  if (!status.valid) return 'invalid'
  const end = supportEnd(status.supportedUntil)
  return end !== null && end.getTime() > now.getTime() ? 'supported' : 'valid'
}

/**
 * The best standing among a customer's purchase codes (those on the tickets
 * they own). 'invalid' when no marketplace is configured, when they have no
 * code, or when the marketplace cannot be reached (access fails closed).
 */
export async function customerPurchaseStanding (ctx: ServiceContext, customerId: number): Promise<PurchaseStanding> {
  const marketplace = ctx.marketplace
  if (marketplace === undefined) return 'invalid'
  const codes = await ctx.store.collections.purchaseCodesOf(customerId)
  let best: PurchaseStanding = 'invalid'
  for (const code of codes) {
    try {
      const standing = await purchaseStanding(marketplace, code, ctx.clock.now())
      if (standing === 'supported') return standing
      if (standing === 'valid') best = standing
    } catch {
      // An unreachable marketplace grants nothing; the reader sees the lower levels.
    }
  }
  return best
}
