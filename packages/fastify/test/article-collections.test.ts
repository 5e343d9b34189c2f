import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'
import { articleEditor, createArticle, createCategory, createCollection, getData, ids } from './knowledge-base-fixtures.js'

const KEYS = ['category_id', 'created_at', 'id', 'name', 'order', 'updated_at', 'visibility']

async function post (h: TestApp, token: string | undefined, url: string, payload: object) {
  return await h.inject({ method: 'POST', url: `/api/v1/article-collections${url}`, payload, ...(token !== undefined ? { token } : {}) })
}

async function orders (h: TestApp, token: string): Promise<Record<number, number>> {
  const list = await getData(h, '/article-collections?per_page=100', token)
  return Object.fromEntries(list.map((c: { id: number, order: number }) => [c.id, c.order]))
}

eachDialect((dialect) => {
  describe(`article collections on ${dialect}`, () => {
    it('creates with the resource shape, appending to the order, and updates partially by POST and PATCH', async (t) => {
      const h = await buildApp(t, dialect)
      const editor = await articleEditor(h)
      const category = await createCategory(h, (await h.user('admin')).token)
      const first = await createCollection(h, editor.token, { category_id: category.id, name: ' Basics ', visibility: 2 })
      assert.deepEqual(keysOf(first), KEYS)
      assert.deepEqual([first.category_id, first.name, first.order, first.visibility], [category.id, 'Basics', 1, 2])
      assert.match(first.created_at, DATETIME)
      const second = await createCollection(h, editor.token, { category_id: category.id })
      assert.equal(second.order, 2)
      const renamed = expectStatus(await post(h, editor.token, `/${first.id}`, { name: 'Start here' }), 200).data
      assert.deepEqual([renamed.name, renamed.visibility, renamed.category_id], ['Start here', 2, category.id])
      const opened = expectStatus(await h.inject({ method: 'PATCH', url: `/api/v1/article-collections/${first.id}`, token: editor.token, payload: { visibility: 1 } }), 200).data
      assert.deepEqual([opened.name, opened.visibility], ['Start here', 1])
      assert.deepEqual(await getData(h, `/article-collections/${first.id}`, editor.token), opened)
      expectError(await post(h, editor.token, '/999999', { name: 'x' }), 404)
    })

    it('validates input and writes nothing on failure', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const category = await createCategory(h, admin.token)
      expectValidation(await post(h, admin.token, '', {}), 'category_id', 'name', 'visibility')
      expectValidation(await post(h, admin.token, '', { category_id: category.id, name: '  ', visibility: 1 }), 'name')
      expectValidation(await post(h, admin.token, '', { category_id: category.id, name: 'n'.repeat(251), visibility: 5 }), 'name', 'visibility')
      expectValidation(await post(h, admin.token, '', { category_id: 999999, name: 'x', visibility: 1 }), 'category_id')
      assert.deepEqual(await getData(h, '/article-collections', admin.token), [])
      const collection = await createCollection(h, admin.token, { category_id: category.id, name: 'n'.repeat(250) })
      expectValidation(await post(h, admin.token, `/${collection.id}`, { visibility: 0 }), 'visibility')
      expectValidation(await post(h, admin.token, `/${collection.id}`, { category_id: 999999 }), 'category_id')
      assert.deepEqual(await getData(h, `/article-collections/${collection.id}`, admin.token), collection)
    })

    it('lets only administrators and agents with manage_articles edit', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const category = await createCategory(h, admin.token)
      const collection = await createCollection(h, admin.token, { category_id: category.id })
      const attempts = (token?: string) => [
        post(h, token, '', { category_id: category.id, name: 'x', visibility: 1 }),
        post(h, token, `/${collection.id}`, { name: 'x' }),
        h.inject({ method: 'PATCH', url: `/api/v1/article-collections/${collection.id}`, payload: { name: 'x' }, ...(token !== undefined ? { token } : {}) }),
        h.inject({ method: 'DELETE', url: `/api/v1/article-collections/${collection.id}`, ...(token !== undefined ? { token } : {}) }),
        post(h, token, '/order', { order: [collection.id] }),
        post(h, token, '/visibility', { collections: [collection.id], visibility: 2 }),
        post(h, token, '/category', { collections: [collection.id], category: category.id })
      ]
      for (const role of ['agent', 'customer'] as const) {
        const { token } = await h.user(role)
        for (const attempt of attempts(token)) expectError(await attempt, 403)
      }
      for (const attempt of attempts()) expectUnauthenticated(await attempt)
      assert.deepEqual(await getData(h, `/article-collections/${collection.id}`, admin.token), collection)
    })

    it('orders by a plain list or a position map, refusing unknown ids', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const category = await createCategory(h, token)
      const [a, b, c] = [
        await createCollection(h, token, { category_id: category.id, name: 'a' }),
        await createCollection(h, token, { category_id: category.id, name: 'b' }),
        await createCollection(h, token, { category_id: category.id, name: 'c' })
      ]
      expectStatus(await post(h, token, '/order', { order: [c.id, a.id, b.id] }), 200)
      assert.deepEqual(await orders(h, token), { [c.id]: 1, [a.id]: 2, [b.id]: 3 })
      assert.deepEqual(ids(await getData(h, '/article-collections', token)), [c.id, a.id, b.id])
      expectStatus(await post(h, token, '/order', { order: { 10: a.id, 20: b.id, 30: c.id } }), 200)
      assert.deepEqual(await orders(h, token), { [a.id]: 10, [b.id]: 20, [c.id]: 30 })
      expectValidation(await post(h, token, '/order', { order: [b.id, 999999, a.id] }), 'order.1')
      expectValidation(await post(h, token, '/order', { order: { 5: 999999, 6: a.id } }), 'order.5')
      expectValidation(await post(h, token, '/order', { order: 'a,b' }), 'order')
      assert.deepEqual(await orders(h, token), { [a.id]: 10, [b.id]: 20, [c.id]: 30 }, 'a refused order changes nothing')
      assert.deepEqual(ids(await getData(h, '/article-collections?sort=-order', token)), [c.id, b.id, a.id])
      assert.deepEqual(ids(await getData(h, '/article-collections?sort=created_at', token)), [a.id, b.id, c.id])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/article-collections?sort=name', token }), 400)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/article-collections?filter[name]=a', token }), 400)
    })

    it('sets visibility and category in bulk, all or nothing; articles follow their collection', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const billing = await createCategory(h, token, 'Billing')
      const themes = await createCategory(h, token, 'Themes')
      const a = await createCollection(h, token, { category_id: billing.id, name: 'a' })
      const b = await createCollection(h, token, { category_id: billing.id, name: 'b' })
      const article = await createArticle(h, token, { category: billing.id, collection: a.id })
      expectStatus(await post(h, token, '/visibility', { collections: [a.id, b.id], visibility: 3 }), 200)
      assert.deepEqual((await getData(h, '/article-collections', token)).map((c: { visibility: number }) => c.visibility), [3, 3])
      expectValidation(await post(h, token, '/visibility', { collections: [a.id, 999999], visibility: 4 }), 'collections.1')
      expectValidation(await post(h, token, '/visibility', { collections: [a.id], visibility: 9 }), 'visibility')
      expectValidation(await post(h, token, '/visibility', { collections: [] , visibility: 1 }), 'collections')
      assert.equal((await getData(h, `/article-collections/${a.id}`, token)).visibility, 3)
      expectValidation(await post(h, token, '/category', { collections: [999999, a.id], category: 999999 }), 'collections.0', 'category')
      expectStatus(await post(h, token, '/category', { collections: [a.id], category: themes.id }), 200)
      assert.equal((await getData(h, `/article-collections/${a.id}`, token)).category_id, themes.id)
      assert.equal((await getData(h, `/articles/${article.id}`, token)).category_id, themes.id)
      expectStatus(await post(h, token, `/${a.id}`, { category_id: billing.id }), 200)
      assert.equal((await getData(h, `/articles/${article.id}`, token)).category_id, billing.id)
      assert.equal((await getData(h, `/article-collections/${b.id}`, token)).category_id, billing.id)
    })

    it('includes articles-count and category, and deletes a collection with its articles', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const category = await createCategory(h, token, 'Billing')
      const a = await createCollection(h, token, { category_id: category.id, name: 'a' })
      const b = await createCollection(h, token, { category_id: category.id, name: 'b' })
      await createArticle(h, token, { category: category.id, collection: a.id, title: 'One' })
      const draft = await createArticle(h, token, { category: category.id, collection: a.id, title: 'Two', status: 'draft' })
      const list = await getData(h, '/article-collections?include=articles-count,category', token)
      assert.deepEqual(list.map((c: { articles_count: number }) => c.articles_count), [2, 0])
      assert.deepEqual(list[0].category, await getData(h, `/categories/${category.id}`, token))
      const customer = await h.user('customer')
      assert.equal((await getData(h, `/article-collections/${a.id}?include=articles-count`, customer.token)).articles_count, 1, 'readers count what they may read')
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/article-collections/${a.id}`, token }), 200)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/article-collections/${a.id}`, token }), 404)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/articles/${draft.id}`, token }), 404)
      expectError(await h.inject({ method: 'DELETE', url: `/api/v1/article-collections/${a.id}`, token }), 404)
      assert.deepEqual(ids(await getData(h, '/article-collections', token)), [b.id])
      expectError(await h.inject({ method: 'DELETE', url: `/api/v1/categories/${category.id}`, token }), 422)
    })

    it('loads includes in batches whatever the page size', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const category = await createCategory(h, admin.token)
      for (let i = 0; i < 100; i++) await h.helpdesk.collections.create(admin.user, { category_id: category.id, name: `C${i}`, visibility: 1 })
      const list = async (perPage: number) => await getData(h, `/article-collections?include=articles-count,category&per_page=${perPage}`, admin.token)
      const small = await h.countQueries(async () => await list(15))
      const large = await h.countQueries(async () => await list(100))
      assert.equal(small.result.length, 15)
      assert.equal(large.result.length, 100)
      assert.equal(large.queries, small.queries)
      assert.ok(large.result.every((c: { category: { id: number } }) => c.category.id === category.id))
    })
  })
})
