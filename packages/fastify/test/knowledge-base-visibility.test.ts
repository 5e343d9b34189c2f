import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { UnavailableError, ValidationError, type MarketplaceVerifier, type PurchaseCodeStatus } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectStatus, expectValidation } from './http-assertions.js'
import { createArticle, createCategory, createCollection, getData, ids } from './knowledge-base-fixtures.js'

const DAY = 24 * 3600 * 1000
const utc = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ')

/** A marketplace that knows a few codes; `DOWN` cannot be checked. Counts its calls. */
function fakeMarketplace (): MarketplaceVerifier & { calls: string[] } {
  const codes: Record<string, PurchaseCodeStatus> = {
    'VALID-EXPIRED': { valid: true, supportedUntil: new Date(Date.now() - DAY) },
    'VALID-NO-SUPPORT': { valid: true, supportedUntil: null },
    'VALID-SUPPORTED': { valid: true, supportedUntil: utc(new Date(Date.now() + 30 * DAY)) },
    'VALID-SUPPORTED-ISO': { valid: true, supportedUntil: new Date(Date.now() + DAY).toISOString() },
    'BAD': { valid: false, supportedUntil: null }
  }
  const calls: string[] = []
  return {
    calls,
    async verifyPurchaseCode (code) {
      calls.push(code)
      if (code === 'DOWN') throw new Error('marketplace unreachable')
      return codes[code] ?? { valid: false, supportedUntil: null }
    }
  }
}

/** One collection per visibility level, a published article in each, and a draft in the public one. */
async function knowledgeBase (h: TestApp) {
  const admin = await h.user('admin')
  const category = await createCategory(h, admin.token)
  const collections = []
  const published = []
  for (const visibility of [1, 2, 3, 4]) {
    const collection = await createCollection(h, admin.token, { category_id: category.id, name: `Level ${visibility}`, visibility })
    collections.push(collection.id)
    published.push((await createArticle(h, admin.token, { category: category.id, collection: collection.id, title: `Level ${visibility}` })).id)
  }
  const draft = (await createArticle(h, admin.token, { category: category.id, collection: collections[0]!, title: 'Draft', status: 'draft' })).id
  return { admin, category, collections, published, draft }
}

/** What `token` (anonymous when undefined) can read: lists, and each single view. */
async function readable (h: TestApp, kb: Awaited<ReturnType<typeof knowledgeBase>>, token?: string) {
  const visible = async (url: string) => (await h.inject({ method: 'GET', url: `/api/v1${url}`, ...(token !== undefined ? { token } : {}) })).statusCode === 200
  const collections = ids(await getData(h, '/article-collections', token))
  const articles = ids(await getData(h, '/articles?sort=created_at', token))
  for (const id of kb.collections) assert.equal(await visible(`/article-collections/${id}`), collections.includes(id), `view of collection ${id}`)
  for (const id of [...kb.published, kb.draft]) assert.equal(await visible(`/articles/${id}`), articles.includes(id), `view of article ${id}`)
  return { collections, articles }
}

async function ticketWithCode (h: TestApp, customer: Awaited<ReturnType<TestApp['user']>>, category: number, code: string) {
  await h.helpdesk.tickets.create(customer.user, { category, title: 'Help', body: 'Please', purchase_code: code })
}

eachDialect((dialect) => {
  describe(`knowledge-base visibility on ${dialect}`, () => {
    it('shows anonymous readers published articles of public collections only', async (t) => {
      const h = await buildApp(t, dialect)
      const kb = await knowledgeBase(h)
      const seen = await readable(h, kb)
      assert.deepEqual(seen, { collections: [kb.collections[0]], articles: [kb.published[0]] })
      assert.deepEqual(await getData(h, `/articles?filter[collection]=${kb.collections[1]}`), [])
      assert.equal((await getData(h, `/article-collections/${kb.collections[0]}?include=articles-count`)).articles_count, 1)
      assert.equal((await getData(h, `/articles/${kb.published[0]}?include=collection`)).collection.id, kb.collections[0])
      assert.deepEqual(ids(await getData(h, '/articles', 'nonsense')), [kb.published[0]], 'an unknown token reads as anonymous')
    })

    it('adds Logged In collections for users; levels 3 and 4 and drafts stay staff-only without a marketplace', async (t) => {
      const h = await buildApp(t, dialect)
      const kb = await knowledgeBase(h)
      const customer = await h.user('customer')
      await ticketWithCode(h, customer, kb.category.id, 'VALID-SUPPORTED')
      assert.deepEqual(await readable(h, kb, customer.token), { collections: kb.collections.slice(0, 2), articles: kb.published.slice(0, 2) })
      const agent = await h.user('agent')
      assert.deepEqual(await readable(h, kb, agent.token), { collections: kb.collections, articles: [...kb.published, kb.draft] })
      assert.equal((await getData(h, `/article-collections/${kb.collections[0]}?include=articles-count`, agent.token)).articles_count, 2)
    })

    it('grants levels 3 and 4 through purchase codes on the customer\'s tickets', async (t) => {
      const marketplace = fakeMarketplace()
      const h = await buildApp(t, dialect, { marketplace })
      const kb = await knowledgeBase(h)
      const category = kb.category.id
      const levels = (n: number) => ({ collections: kb.collections.slice(0, n), articles: kb.published.slice(0, n) })
      const cases: Array<[string[], number, string]> = [
        [['VALID-EXPIRED'], 3, 'a valid code out of support'],
        [['VALID-NO-SUPPORT'], 3, 'a valid code without a support date'],
        [['BAD', 'VALID-SUPPORTED'], 4, 'the best of several codes'],
        [['VALID-SUPPORTED-ISO'], 4, 'support until an ISO 8601 date'],
        [['BAD', 'DOWN'], 2, 'invalid codes, and an unreachable marketplace, grant nothing'],
        [[], 2, 'no code']
      ]
      for (const [codes, level, why] of cases) {
        const customer = await h.user('customer')
        for (const code of codes) await ticketWithCode(h, customer, category, code)
        assert.deepEqual(await readable(h, kb, customer.token), levels(level), why)
      }
      assert.deepEqual(await readable(h, kb), levels(1))
      assert.equal(marketplace.calls.filter((c) => c === 'VALID-EXPIRED').length, 1, 'answers are cached briefly')
      // A code on a ticket staff raised on the customer's behalf counts: the ticket is theirs.
      const other = await h.user('customer')
      await h.helpdesk.tickets.create(kb.admin.user, { category, title: 'For other', body: 'x', customer_id: other.user.id, purchase_code: 'VALID-SUPPORTED' })
      assert.deepEqual(await readable(h, kb, other.token), levels(4))
      assert.deepEqual(await readable(h, kb, kb.admin.token), { collections: kb.collections, articles: [...kb.published, kb.draft] })
    })

    it('requires a valid purchase code on tickets in verified categories only with a marketplace', async (t) => {
      const marketplace = fakeMarketplace()
      const h = await buildApp(t, dialect, { marketplace })
      const admin = await h.user('admin')
      const customer = await h.user('customer')
      const code = await createCategory(h, admin.token, 'Code', { purchase_verification: 1 })
      const support = await createCategory(h, admin.token, 'Support', { purchase_verification: 2 })
      const open = await createCategory(h, admin.token, 'Open')
      const create = async (category: number, purchaseCode?: string) =>
        await h.helpdesk.tickets.create(customer.user, { category, title: 'Help', body: 'Please', ...(purchaseCode !== undefined ? { purchase_code: purchaseCode } : {}) })
      const refusal = async (category: number, purchaseCode?: string) => {
        const error = await create(category, purchaseCode).then(() => null, (e: unknown) => e)
        assert.ok(error instanceof ValidationError, `expected a 422, got ${String(error)}`)
        return Object.keys(error.errors)
      }
      assert.deepEqual(await refusal(code.id), ['purchase_code'])
      assert.deepEqual(await refusal(code.id, '  '), ['purchase_code'])
      assert.deepEqual(await refusal(code.id, 'BAD'), ['purchase_code'])
      assert.equal((await create(code.id, 'VALID-EXPIRED')).additional.purchase_code, 'VALID-EXPIRED')
      assert.deepEqual(await refusal(support.id, 'VALID-EXPIRED'), ['purchase_code'])
      assert.deepEqual(await refusal(support.id, 'VALID-NO-SUPPORT'), ['purchase_code'])
      await create(support.id, 'VALID-SUPPORTED')
      await create(open.id)
      await assert.rejects(create(code.id, 'DOWN'), (e: unknown) => e instanceof UnavailableError && e.statusCode === 503)
      const http = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/tickets', token: customer.token, payload: { category: support.id, title: 'Help', body: 'Please', ...payload } })
      expectValidation(await http({}), 'purchase_code')
      expectValidation(await http({ purchase_code: 'VALID-EXPIRED' }), 'purchase_code')
      expectStatus(await http({ purchase_code: 'VALID-SUPPORTED' }), 201)
      const plain = await buildApp(t, dialect)
      const admin2 = await plain.user('admin')
      const customer2 = await plain.user('customer')
      const verified = await createCategory(plain, admin2.token, 'Support', { purchase_verification: 2 })
      await plain.helpdesk.tickets.create(customer2.user, { category: verified.id, title: 'Help', body: 'Please' })
    })
  })
})
