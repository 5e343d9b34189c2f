import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ValidationError } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'
import { articleEditor, createArticle, createCategory, createCollection, getData, ids } from './knowledge-base-fixtures.js'

const KEYS = ['author_id', 'body', 'category_id', 'collection_id', 'created_at', 'id', 'order', 'published_at', 'slug', 'title', 'updated_at']

async function patch (h: TestApp, token: string, id: number, payload: object) {
  return await h.inject({ method: 'PATCH', url: `/api/v1/articles/${id}`, token, payload })
}

async function setup (h: TestApp) {
  const admin = await h.user('admin')
  const category = await createCategory(h, admin.token, 'Billing')
  const collection = await createCollection(h, admin.token, { category_id: category.id })
  return { admin, category, collection, place: { category: category.id, collection: collection.id } }
}

eachDialect((dialect) => {
  describe(`articles on ${dialect}`, () => {
    it('creates with the resource shape: slug, author, order, sanitised body, publication', async (t) => {
      const h = await buildApp(t, dialect)
      const { category, collection, place } = await setup(h)
      const editor = await articleEditor(h)
      const article = await createArticle(h, editor.token, { ...place, title: ' How to start ', body: '<p>Hi<img src="x" onerror="alert(1)"></p><script>x</script>' })
      assert.deepEqual(keysOf(article), KEYS)
      assert.deepEqual(
        [article.title, article.slug, article.body, article.order, article.author_id, article.category_id, article.collection_id],
        ['How to start', 'how-to-start', '<p>Hi<img src="x" /></p>', 1, editor.user.id, category.id, collection.id]
      )
      assert.match(article.published_at, DATETIME)
      const draft = await createArticle(h, editor.token, { ...place, title: 'Later', status: 'draft' })
      assert.deepEqual([draft.published_at, draft.order], [null, 2])
      assert.deepEqual(await getData(h, `/articles/${article.id}`, editor.token), article)
    })

    it('makes unique, transliterated slugs that survive title edits unless regenerated', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, place } = await setup(h)
      const token = admin.token
      const slugs = []
      for (let i = 0; i < 3; i++) slugs.push((await createArticle(h, token, { ...place, title: 'Reset your password' })).slug)
      assert.deepEqual(slugs, ['reset-your-password', 'reset-your-password-2', 'reset-your-password-3'])
      assert.equal((await createArticle(h, token, { ...place, title: 'Crème brûlée — à la carte!  2.0' })).slug, 'creme-brulee-a-la-carte-2-0')
      assert.equal((await createArticle(h, token, { ...place, title: 'Привет, мир' })).slug, 'privet-mir')
      assert.equal((await createArticle(h, token, { ...place, title: '日本語' })).slug, 'article')
      const article = await createArticle(h, token, { ...place, title: 'Old title' })
      assert.equal(expectStatus(await patch(h, token, article.id, { title: 'New title' }), 200).data.slug, 'old-title')
      assert.equal(expectStatus(await patch(h, token, article.id, { regenerate_slug: true }), 200).data.slug, 'new-title')
      assert.equal(expectStatus(await patch(h, token, article.id, { title: 'Reset your password', regenerate_slug: true }), 200).data.slug, 'reset-your-password-4')
      assert.equal(expectStatus(await patch(h, token, article.id, { slug: 'My Own  Slug' }), 200).data.slug, 'my-own-slug')
      expectValidation(await patch(h, token, article.id, { slug: 'reset-your-password' }), 'slug')
      expectValidation(await patch(h, token, article.id, { slug: '---' }), 'slug')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/articles', token, payload: { ...place, title: 'x', body: 'x', status: 'draft', slug: 'privet-mir' } }), 'slug')
      assert.equal((await getData(h, `/articles/${article.id}`, token)).slug, 'my-own-slug')
      const all = await getData(h, '/articles?per_page=100', token)
      assert.ok(all.every((a: { slug: string }) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(a.slug)))
      assert.equal(new Set(all.map((a: { slug: string }) => a.slug)).size, all.length)
    })

    it('gives concurrent articles with one title distinct slugs; the unique index guards the rest', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, place } = await setup(h)
      const created = await Promise.all(Array.from({ length: 5 }, async () =>
        await h.helpdesk.articles.create(admin.user, { ...place, title: 'Same title', body: 'x', status: 'draft' })))
      assert.deepEqual(created.map((a) => a.slug).sort(), ['same-title', 'same-title-2', 'same-title-3', 'same-title-4', 'same-title-5'])
      const clash = { ...created[0]!, slug: 'same-title-3' }
      await assert.rejects(
        h.store.articles.create({ title: clash.title, slug: clash.slug, body: 'x', order: 9, author_id: null, category_id: clash.category_id, collection_id: clash.collection_id, published_at: null }),
        (e: unknown) => e instanceof ValidationError && e.errors.slug !== undefined
      )
    })

    it('drives published_at by status', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, place } = await setup(h)
      const draft = await createArticle(h, admin.token, { ...place, status: 'draft' })
      const published = expectStatus(await patch(h, admin.token, draft.id, { status: 'published' }), 200).data
      assert.match(published.published_at, DATETIME)
      await h.store.knex('articles').where('id', draft.id).update({ published_at: '2020-02-02 02:02:02' })
      assert.equal(expectStatus(await patch(h, admin.token, draft.id, { status: 'published', title: 'Again' }), 200).data.published_at, '2020-02-02 02:02:02')
      assert.equal(expectStatus(await patch(h, admin.token, draft.id, { title: 'Kept' }), 200).data.published_at, '2020-02-02 02:02:02')
      assert.equal(expectStatus(await patch(h, admin.token, draft.id, { status: 'draft' }), 200).data.published_at, null)
    })

    it('validates input, writing nothing on failure', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, category, collection, place } = await setup(h)
      const token = admin.token
      const other = await createCategory(h, token, 'Other')
      const send = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/articles', token, payload })
      const valid = { ...place, title: 'T', body: 'B', status: 'draft' }
      expectValidation(await send({}), 'title', 'body', 'category', 'collection', 'status')
      expectValidation(await send({ ...valid, status: 'archived' }), 'status')
      expectValidation(await send({ ...valid, title: 't'.repeat(251) }), 'title')
      expectValidation(await send({ ...valid, title: '  ', body: '<script></script>' }), 'title', 'body')
      expectValidation(await send({ ...valid, collection: 999999, category: 999999 }), 'collection', 'category')
      expectValidation(await send({ ...valid, category: other.id }), 'category')
      expectValidation(await send({ ...valid, tags: ['ok', '  ', ' '] }), 'tags.1', 'tags.2')
      expectValidation(await send({ ...valid, tags: ['ok', 'x'.repeat(101)] }), 'tags.1')
      assert.deepEqual(await getData(h, '/articles', token), [])
      assert.deepEqual(await h.store.knex('tags').select('id'), [])
      const article = await createArticle(h, token, { ...place, title: 't'.repeat(250) })
      expectValidation(await patch(h, token, article.id, { title: '', category: other.id }), 'title')
      expectValidation(await patch(h, token, article.id, { category: other.id }), 'category')
      assert.deepEqual([(await getData(h, `/articles/${article.id}`, token)).category_id, collection.category_id], [category.id, category.id])
      expectError(await patch(h, token, 999999, { title: 'x' }), 404)
    })

    it('updates partially, moving collections (category follows) and replacing tags', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, place } = await setup(h)
      const token = admin.token
      const themes = await createCategory(h, token, 'Themes')
      const target = await createCollection(h, token, { category_id: themes.id, name: 'Target' })
      await createArticle(h, token, { category: themes.id, collection: target.id })
      const article = await createArticle(h, token, { ...place, title: 'Keep', body: '<p>Body</p>', tags: ['billing', 'Billing', ' faq  tips ', 'billing'] })
      assert.deepEqual((await getData(h, `/articles/${article.id}?include=tags`, token)).tags.map((t: { name: string }) => t.name), ['Billing', 'billing', 'faq tips'])
      const moved = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/articles/${article.id}`, token, payload: { collection: target.id, tags: ['faq tips', 'new'] } }), 200).data
      assert.deepEqual([moved.title, moved.body, moved.collection_id, moved.category_id, moved.order], ['Keep', '<p>Body</p>', target.id, themes.id, 2])
      const tags = (await getData(h, `/articles/${article.id}?include=tags`, token)).tags
      assert.deepEqual(tags.map((t: { name: string }) => t.name), ['faq tips', 'new'])
      assert.deepEqual(keysOf(tags[0]), ['id', 'name'])
      expectStatus(await patch(h, token, article.id, { tags: [] }), 200)
      assert.deepEqual((await getData(h, `/articles/${article.id}?include=tags`, token)).tags, [])
      assert.equal((await h.store.knex('tags').count({ n: '*' }).first() as { n: number | string }).n.toString(), '4', 'tags are created once and kept')
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/articles/${article.id}`, token }), 200)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/articles/${article.id}`, token }), 404)
      expectError(await h.inject({ method: 'DELETE', url: `/api/v1/articles/${article.id}`, token }), 404)
    })

    it('orders within one collection and refuses ids spanning collections, changing nothing', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, category, place } = await setup(h)
      const token = admin.token
      const second = await createCollection(h, token, { category_id: category.id, name: 'Second' })
      const [a, b, c] = [await createArticle(h, token, place), await createArticle(h, token, place), await createArticle(h, token, place)]
      const elsewhere = await createArticle(h, token, { category: category.id, collection: second.id })
      const order = async () => ids(await getData(h, `/articles?filter[collection]=${place.collection}`, token))
      assert.deepEqual(await order(), [a.id, b.id, c.id])
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/articles/order', token, payload: { order: [c.id, a.id, b.id] } }), 200)
      assert.deepEqual(await order(), [c.id, a.id, b.id])
      expectStatus(await h.inject({ method: 'POST', url: '/api/v1/articles/order', token, payload: { order: { 3: c.id, 1: b.id, 2: a.id } } }), 200)
      assert.deepEqual(await order(), [b.id, a.id, c.id])
      const before = await h.store.knex('articles').select('id', 'order', 'updated_at').orderBy('id')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/articles/order', token, payload: { order: [a.id, elsewhere.id, b.id] } }), 'order')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/articles/order', token, payload: { order: [a.id, 999999] } }), 'order.1')
      assert.deepEqual(await h.store.knex('articles').select('id', 'order', 'updated_at').orderBy('id'), before)
      const agent = await h.user('agent')
      expectError(await h.inject({ method: 'POST', url: '/api/v1/articles/order', token: agent.token, payload: { order: [a.id] } }), 403)
    })

    it('lets only administrators and agents with manage_articles edit', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, place } = await setup(h)
      const article = await createArticle(h, admin.token, place)
      const attempts = (token?: string) => {
        const auth = token !== undefined ? { token } : {}
        return [
          h.inject({ method: 'POST', url: '/api/v1/articles', payload: { ...place, title: 'x', body: 'x', status: 'draft' }, ...auth }),
          h.inject({ method: 'PATCH', url: `/api/v1/articles/${article.id}`, payload: { title: 'x' }, ...auth }),
          h.inject({ method: 'POST', url: `/api/v1/articles/${article.id}`, payload: { title: 'x' }, ...auth }),
          h.inject({ method: 'DELETE', url: `/api/v1/articles/${article.id}`, ...auth })
        ]
      }
      for (const role of ['agent', 'customer'] as const) {
        const { token } = await h.user(role)
        for (const attempt of attempts(token)) expectError(await attempt, 403)
      }
      for (const attempt of attempts()) expectUnauthenticated(await attempt)
      assert.deepEqual(await getData(h, `/articles/${article.id}`, admin.token), article)
    })

    it('sorts, filters and includes author, category, collection and tags', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, category, collection, place } = await setup(h)
      const editor = await articleEditor(h)
      const second = await createCollection(h, admin.token, { category_id: category.id, name: 'Second' })
      const b = await createArticle(h, admin.token, { ...place, title: 'beta', body: '<p>Refunds take a week</p>', tags: ['money'] })
      const a = await createArticle(h, editor.token, { ...place, title: 'alpha', body: '<p>Install the theme</p>' })
      const c = await createArticle(h, editor.token, { category: category.id, collection: second.id, title: 'gamma refund', body: '<p>x</p>' })
      await h.store.knex('articles').where('id', a.id).update({ created_at: '2020-01-01 00:00:00', updated_at: '2031-01-01 00:00:00' })
      const list = async (query: string) => ids(await getData(h, `/articles${query}`, admin.token))
      assert.deepEqual(await list(''), [b.id, c.id, a.id], 'default sort is order (then id)')
      assert.deepEqual(await list('?sort=title'), [a.id, b.id, c.id])
      assert.deepEqual(await list('?sort=-title'), [c.id, b.id, a.id])
      assert.deepEqual(await list('?sort=created_at'), [a.id, b.id, c.id])
      assert.deepEqual(await list('?sort=-updated_at'), [a.id, c.id, b.id])
      assert.deepEqual(await list('?filter[title]=AMM'), [c.id])
      assert.deepEqual(await list('?filter[body]=refund&sort=title'), [b.id])
      assert.deepEqual(await list(`?filter[author]=${editor.user.id}&sort=title`), [a.id, c.id])
      assert.deepEqual(await list(`?filter[collection]=${second.id}`), [c.id])
      assert.deepEqual(await list(`?filter[category]=${category.id},999&sort=title`), [a.id, b.id, c.id])
      expectValidation(await h.inject({ method: 'GET', url: '/api/v1/articles?filter[author]=abc', token: admin.token }), 'filter.author')
      assert.deepEqual(await list(`?filter[slug]=${b.slug}`), [b.id])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/articles?filter[tag]=x', token: admin.token }), 400)
      const full = await getData(h, `/articles/${b.id}?include=author,category,collection,tags`, admin.token)
      assert.deepEqual(keysOf(full.author), ['avatar', 'email', 'first_name', 'id', 'last_name', 'type'])
      assert.deepEqual([full.author.id, full.author.type], [admin.user.id, 'admin'])
      const customer = await h.user('customer')
      for (const reader of [undefined, customer.token]) {
        const publicView = await getData(h, `/articles/${b.id}?include=author`, reader)
        assert.deepEqual(keysOf(publicView.author), ['avatar', 'first_name', 'id', 'last_name', 'type'], 'staff emails are not shown to customers or anonymous readers')
      }
      assert.deepEqual(full.category, await getData(h, `/categories/${category.id}`, admin.token))
      assert.deepEqual(full.collection, collection)
      assert.deepEqual(full.tags.map((t: { name: string }) => t.name), ['money'])
      await h.store.users.delete(editor.user.id)
      assert.equal((await getData(h, `/articles/${a.id}?include=author`, admin.token)).author, null, 'a deleted author leaves null')
    })

    it('loads includes in batches whatever the page size', async (t) => {
      const h = await buildApp(t, dialect)
      const { admin, place } = await setup(h)
      for (let i = 0; i < 100; i++) {
        await h.helpdesk.articles.create(admin.user, { ...place, title: `Article ${i}`, body: 'x', status: 'published', tags: [`t${i % 7}`, 'all'] })
      }
      const list = async (perPage: number) => await getData(h, `/articles?include=author,category,collection,tags&per_page=${perPage}`, admin.token)
      const small = await h.countQueries(async () => await list(15))
      const large = await h.countQueries(async () => await list(100))
      assert.equal(small.result.length, 15)
      assert.equal(large.result.length, 100)
      assert.equal(large.queries, small.queries)
      assert.ok(large.result.every((a: any) => a.author.id === admin.user.id && a.collection.id === place.collection && a.tags.length === 2))
    })
  })
})
