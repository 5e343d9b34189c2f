import type { ServiceContext } from '../context.js'
import type { MarketplaceVerifier, PurchaseCodeStatus } from '../ports.js'

/** What a purchase code is worth: nothing, a valid purchase, or a valid purchase still in support. */
export type PurchaseStanding = 'invalid' | 'valid' | 'supported'

/**
 * Answers are kept this long per code, shared by every request of the
 * process (per verifier), so reading the knowledge base does not call the
 * marketplace every time. A check in flight is shared too: readers arriving
 * together cost one call per code. Failures are not kept.
 */
const CACHE_MS = 60_000
const CACHE_SIZE = 1000

/**
 * A customer's standing looks at this many of their codes at most (those on
 * their newest tickets), checked together: however many tickets a customer
 * opens with made-up codes, a knowledge-base read costs at most this many
 * marketplace calls.
 */
export const PURCHASE_CODES_CHECKED = 5

interface Cached { status: Promise<PurchaseCodeStatus>, expires: number }
const caches = new WeakMap<MarketplaceVerifier, Map<string, Cached>>()

async function verify (marketplace: MarketplaceVerifier, code: string, now: Date): Promise<PurchaseCodeStatus> {
  let cache = caches.get(marketplace)
  if (cache === undefined) caches.set(marketplace, cache = new Map())
  const hit = cache.get(code)
  if (hit !== undefined && hit.expires > now.getTime()) return await hit.status
  const entry: Cached = { status: marketplace.verifyPurchaseCode(code), expires: now.getTime() + CACHE_MS }
  cache.delete(code)
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  cache.set(code, entry)
  try {
    return await entry.status
  } catch (error) {
    if (cache.get(code) === entry) cache.delete(code)
    throw error
  }
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
 * they own; the PURCHASE_CODES_CHECKED newest). 'invalid' when no marketplace is configured, when they have no
 * code, or when the marketplace cannot be reached (access fails closed).
 */
export async function customerPurchaseStanding (ctx: ServiceContext, customerId: number): Promise<PurchaseStanding> {
  const marketplace = ctx.marketplace
  if (marketplace === undefined) return 'invalid'
  const codes = await ctx.store.collections.purchaseCodesOf(customerId, PURCHASE_CODES_CHECKED)
  const now = ctx.clock.now()
  // An unreachable marketplace grants nothing for that code; the reader sees the lower levels.
  const standings = await Promise.all(codes.map(async (code) => await purchaseStanding(marketplace, code, now).catch((): PurchaseStanding => 'invalid')))
  if (standings.includes('supported')) return 'supported'
  return standings.includes('valid') ? 'valid' : 'invalid'
}
