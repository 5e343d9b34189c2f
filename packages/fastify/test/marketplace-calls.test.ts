import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { PURCHASE_CODES_CHECKED, type MarketplaceVerifier, type PurchaseCodeStatus } from '@helpdesk/core'
import { buildApp, eachDialect } from './helpers.js'
import { createArticle, createCategory, createCollection, getData, ids } from './knowledge-base-fixtures.js'

const DAY = 24 * 3600 * 1000

/**
 * A counting fake of the marketplace port: `SUPPORTED` is a code in support,
 * anything else is unknown. Each answer takes a moment, so readers arriving
 * together overlap.
 */
function countingMarketplace (): MarketplaceVerifier & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    async verifyPurchaseCode (code): Promise<PurchaseCodeStatus> {
      calls.push(code)
      await new Promise((resolve) => setTimeout(resolve, 20))
      return code === 'SUPPORTED' ? { valid: true, supportedUntil: new Date(Date.now() + 30 * DAY) } : { valid: false, supportedUntil: null }
    }
  }
}

/** Issue 11: a knowledge-base read costs a bounded number of marketplace calls, and answers are shared for a while. */
eachDialect((dialect) => {
  describe(`marketplace calls per knowledge-base read on ${dialect}`, () => {
    it('checks at most the newest few codes of a customer, together, and caches each code\'s answer per process', async (t) => {
      const marketplace = countingMarketplace()
      const h = await buildApp(t, dialect, { marketplace })
      const admin = await h.user('admin')
      const category = await createCategory(h, admin.token)
      const supported = await createCollection(h, admin.token, { category_id: category.id, name: 'Support only', visibility: 4 })
      const article = (await createArticle(h, admin.token, { category: category.id, collection: supported.id, title: 'For supported customers' })).id
      const customer = await h.user('customer')
      // Twenty made-up codes, then the real one on the newest ticket.
      await h.helpdesk.tickets.importMany([
        ...Array.from({ length: 20 }, (_, i) => ({ user_id: customer.user.id, category_id: category.id, title: `Old ${i}`, body: 'x', purchase_code: `MADE-UP-${i}`, created_at: `2024-01-${String(i + 1).padStart(2, '0')} 10:00:00` })),
        { user_id: customer.user.id, category_id: category.id, title: 'Newest', body: 'x', purchase_code: 'SUPPORTED', created_at: '2025-01-01 10:00:00' }
      ])

      // Readers arriving together share the checks in flight.
      const reads = await Promise.all(Array.from({ length: 4 }, async () => ids(await getData(h, '/articles', customer.token))))
      for (const seen of reads) assert.ok(seen.includes(article), 'the newest code grants its level')
      assert.ok(marketplace.calls.length <= PURCHASE_CODES_CHECKED, `${marketplace.calls.length} calls: ${marketplace.calls.join(', ')}`)
      assert.equal(new Set(marketplace.calls).size, marketplace.calls.length, 'one call per code')
      assert.ok(marketplace.calls.includes('SUPPORTED'))

      // Later reads answer from the cache.
      const before = marketplace.calls.length
      for (let i = 0; i < 5; i++) assert.ok(ids(await getData(h, '/articles', customer.token)).includes(article))
      await getData(h, `/article-collections?include=articles-count`, customer.token)
      assert.equal(marketplace.calls.length, before, 'no call while the answers are fresh')

      // Another customer with the same code: the answer is shared per code.
      const other = await h.user('customer')
      await h.helpdesk.tickets.importMany([{ user_id: other.user.id, category_id: category.id, title: 'Mine', body: 'x', purchase_code: 'SUPPORTED' }])
      assert.ok(ids(await getData(h, '/articles', other.token)).includes(article))
      assert.equal(marketplace.calls.length, before)
    })
  })
})
