import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { checkFieldAnswers, ValidationError } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'
import { createCategory, getData, ids } from './knowledge-base-fixtures.js'

const FIELD_KEYS = ['created_at', 'description', 'id', 'meta', 'placeholder', 'required', 'title', 'type', 'updated_at']

async function createField (h: TestApp, token: string, payload: object): Promise<any> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/fields', token, payload }), 201).data
}

async function patchField (h: TestApp, token: string, id: number, payload: object) {
  return await h.inject({ method: 'PATCH', url: `/api/v1/fields/${id}`, token, payload })
}

eachDialect((dialect) => {
  describe(`custom fields on ${dialect}`, () => {
    it('creates each type with the resource shape; options live in meta', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const select = await createField(h, token, { title: ' Plan ', type: 'select-box', options: ['Basic', ' Pro '], required: true, placeholder: 'Pick one' })
      assert.deepEqual(keysOf(select), FIELD_KEYS)
      assert.deepEqual(
        { type: select.type, title: select.title, meta: select.meta, required: select.required, placeholder: select.placeholder, description: select.description },
        { type: 'select-box', title: 'Plan', meta: ['Basic', 'Pro'], required: true, placeholder: 'Pick one', description: null }
      )
      assert.match(select.created_at, DATETIME)
      const text = await createField(h, token, { title: 'Website', type: 'text', options: ['ignored'], description: '' })
      assert.deepEqual([text.meta, text.required, text.description], [[], false, null])
      const area = await createField(h, token, { title: 'Steps', type: 'text-area' })
      assert.equal(area.type, 'text-area')
      assert.deepEqual(await getData(h, `/fields/${select.id}`, token), select)
    })

    it('validates: options for select-boxes, the spec\'s lengths, the type, and category ids', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const post = async (payload: object) => await h.inject({ method: 'POST', url: '/api/v1/fields', token, payload })
      expectValidation(await post({ title: 'Plan', type: 'select-box' }), 'options')
      expectValidation(await post({ title: 'Plan', type: 'select-box', options: [] }), 'options')
      expectValidation(await post({ title: 'Plan', type: 'select-box', options: ['A', ' ', 'A'] }), 'options.1', 'options.2')
      expectValidation(await post({ title: 'Plan', type: 'radio' }), 'type')
      expectValidation(await post({ type: 'text' }), 'title')
      expectValidation(await post({ title: '   ', type: 'text' }), 'title')
      expectValidation(
        await post({ title: 't'.repeat(101), type: 'text', placeholder: 'p'.repeat(101), description: 'd'.repeat(251) }),
        'title', 'placeholder', 'description'
      )
      const category = await createCategory(h, token)
      expectValidation(await post({ title: 'Plan', type: 'text', categories: [category.id, 999999] }), 'categories.1')
      assert.equal((await getData(h, '/fields', token)).length, 0, 'failed creates write nothing')
      await createField(h, token, { title: 't'.repeat(100), type: 'text', placeholder: 'p'.repeat(100), description: 'd'.repeat(250) })
    })

    it('is for administrators only', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const field = await createField(h, admin.token, { title: 'Website', type: 'text' })
      for (const role of ['agent', 'customer'] as const) {
        const { token } = await h.user(role)
        expectError(await h.inject({ method: 'GET', url: '/api/v1/fields', token }), 403)
        expectError(await h.inject({ method: 'GET', url: `/api/v1/fields/${field.id}`, token }), 403)
        expectError(await h.inject({ method: 'POST', url: '/api/v1/fields', token, payload: { title: 'X', type: 'text' } }), 403)
        expectError(await patchField(h, token, field.id, { title: 'X' }), 403)
        expectError(await h.inject({ method: 'DELETE', url: `/api/v1/fields/${field.id}`, token }), 403)
      }
      expectUnauthenticated(await h.inject({ method: 'GET', url: '/api/v1/fields' }))
      expectUnauthenticated(await h.inject({ method: 'POST', url: '/api/v1/fields', payload: { title: 'X', type: 'text' } }))
      assert.equal((await getData(h, `/fields/${field.id}`, admin.token)).title, 'Website')
    })

    it('updates partially, keeping or requiring options as the type demands', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const field = await createField(h, token, { title: 'Plan', type: 'select-box', options: ['A', 'B'], placeholder: 'Pick' })
      const renamed = expectStatus(await patchField(h, token, field.id, { title: 'Tier' }), 200).data
      assert.deepEqual([renamed.title, renamed.meta, renamed.placeholder], ['Tier', ['A', 'B'], 'Pick'])
      const viaPost = expectStatus(await h.inject({ method: 'POST', url: `/api/v1/fields/${field.id}`, token, payload: { options: ['C'], placeholder: null } }), 200).data
      assert.deepEqual([viaPost.meta, viaPost.placeholder], [['C'], null])
      const text = expectStatus(await patchField(h, token, field.id, { type: 'text' }), 200).data
      assert.deepEqual([text.type, text.meta], ['text', []])
      expectValidation(await patchField(h, token, field.id, { type: 'select-box' }), 'options')
      expectValidation(await patchField(h, token, field.id, { title: '' }), 'title')
      assert.deepEqual((await getData(h, `/fields/${field.id}`, token)).type, 'text', 'a rejected update changes nothing')
      expectError(await patchField(h, token, 999999, { title: 'X' }), 404)
    })

    it('assigns categories, counts them, and forms each category\'s ticket form', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const billing = await createCategory(h, token, 'Billing')
      const themes = await createCategory(h, token, 'Themes')
      const plan = await createField(h, token, { title: 'Plan', type: 'select-box', options: ['A'], categories: [billing.id, themes.id, billing.id] })
      const site = await createField(h, token, { title: 'Website', type: 'text', categories: [billing.id] })
      assert.equal((await getData(h, `/fields/${plan.id}?include=categories-count`, token)).categories_count, 2)
      const form = (await getData(h, `/categories/${billing.id}?include=fields`, token)).fields
      assert.deepEqual(ids(form), [plan.id, site.id])
      assert.deepEqual(form[0], plan, 'the category include uses the custom field shape')
      expectValidation(await patchField(h, token, site.id, { categories: [themes.id, 0] }), 'categories.1')
      expectStatus(await patchField(h, token, site.id, { categories: [themes.id] }), 200)
      assert.deepEqual(ids((await getData(h, `/categories/${billing.id}?include=fields`, token)).fields), [plan.id])
      expectStatus(await patchField(h, token, plan.id, { categories: [] }), 200)
      assert.equal((await getData(h, `/fields/${plan.id}?include=categories-count`, token)).categories_count, 0)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/fields/${site.id}`, token }), 200)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/fields/${site.id}`, token }), 404)
      expectError(await h.inject({ method: 'DELETE', url: `/api/v1/fields/${site.id}`, token }), 404)
      assert.deepEqual((await getData(h, `/categories/${themes.id}?include=fields`, token)).fields, [])
    })

    it('sorts by id, title and type, filters title (partial) and type (exact)', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const b = await createField(h, token, { title: 'beta site', type: 'text' })
      const a = await createField(h, token, { title: 'alpha plan', type: 'select-box', options: ['x'] })
      const c = await createField(h, token, { title: 'gamma notes', type: 'text-area' })
      assert.deepEqual(ids(await getData(h, '/fields', token)), [b.id, a.id, c.id])
      assert.deepEqual(ids(await getData(h, '/fields?sort=title', token)), [a.id, b.id, c.id])
      assert.deepEqual(ids(await getData(h, '/fields?sort=-type', token)), [c.id, b.id, a.id])
      assert.deepEqual(ids(await getData(h, '/fields?filter[title]=PLAN', token)), [a.id])
      assert.deepEqual(ids(await getData(h, '/fields?filter[type]=text,text-area', token)), [b.id, c.id])
      assert.deepEqual(ids(await getData(h, '/fields?filter[type]=text-are', token)), [])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/fields?sort=required', token }), 400)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/fields?include=categories', token }), 400)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/fields?filter[placeholder]=x', token }), 400)
    })

    it('loads categories-count in one query whatever the page size', async (t) => {
      const h = await buildApp(t, dialect)
      const { user, token } = await h.user('admin')
      const category = await createCategory(h, token)
      for (let i = 0; i < 100; i++) await h.helpdesk.customFields.create(user, { title: `Field ${i}`, type: 'text', categories: [category.id] })
      const list = async (perPage: number) => await getData(h, `/fields?include=categories-count&per_page=${perPage}`, token)
      const small = await h.countQueries(async () => await list(15))
      const large = await h.countQueries(async () => await list(100))
      assert.equal(small.result.length, 15)
      assert.equal(large.result.length, 100)
      assert.equal(large.queries, small.queries)
      assert.ok(large.result.every((f: { categories_count: number }) => f.categories_count === 1))
    })

    it('makes ticket creation answer the category\'s form (HTTP)', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const customer = await h.user('customer')
      const category = await createCategory(h, admin.token)
      const plan = await createField(h, admin.token, { title: 'Plan', type: 'select-box', options: ['Basic', 'Pro'], required: true, categories: [category.id] })
      const site = await createField(h, admin.token, { title: 'Website', type: 'text', categories: [category.id] })
      const post = async (fields?: object) => await h.inject({
        method: 'POST', url: '/api/v1/tickets', token: customer.token, payload: { category: category.id, title: 'Help', body: 'Please', ...(fields !== undefined ? { fields } : {}) }
      })
      expectValidation(await post(), `fields.${plan.id}`)
      expectValidation(await post({ [plan.id]: 'Gold', [site.id]: 'x'.repeat(251) }), `fields.${plan.id}`, `fields.${site.id}`)
      assert.equal((await h.store.knex('tickets').count({ n: '*' }).first() as { n: number | string }).n.toString(), '0')
      const ticket = expectStatus(await post({ [plan.id]: 'Pro', [site.id]: ' https://x.test ' }), 201).data
      assert.deepEqual(ticket.additional.fields, { [plan.id]: 'Pro', [site.id]: 'https://x.test' })
    })

    it('checks ticket answers against the category\'s fields', async (t) => {
      const h = await buildApp(t, dialect)
      const { user, token } = await h.user('admin')
      const category = await createCategory(h, token)
      const other = await createCategory(h, token, 'Other')
      const fields = h.helpdesk.customFields
      const plan = await fields.create(user, { title: 'Plan', type: 'select-box', options: ['Basic', 'Pro'], required: true, categories: [category.id] })
      const site = await fields.create(user, { title: 'Website', type: 'text', categories: [category.id] })
      const steps = await fields.create(user, { title: 'Steps', type: 'text-area', categories: [category.id] })
      const foreign = await fields.create(user, { title: 'Foreign', type: 'text', categories: [other.id] })
      const check = async (answers: Record<string, unknown> | undefined) => await checkFieldAnswers(h.store, category.id, answers)
      const failure = async (answers: Record<string, unknown> | undefined) => {
        const error = await check(answers).then(() => null, (e: unknown) => e)
        assert.ok(error instanceof ValidationError, `expected a ValidationError, got ${String(error)}`)
        return Object.keys(error.errors).sort()
      }
      assert.deepEqual(await check({ [plan.id]: ' Pro ', [site.id]: 'https://x.test', [steps.id]: '' }), { [plan.id]: 'Pro', [site.id]: 'https://x.test' })
      assert.deepEqual(await failure(undefined), [`fields.${plan.id}`])
      assert.deepEqual(await failure({ [plan.id]: '  ' }), [`fields.${plan.id}`])
      assert.deepEqual(await failure({ [plan.id]: 'Gold' }), [`fields.${plan.id}`])
      assert.deepEqual(
        await failure({ [plan.id]: 'Basic', [site.id]: 's'.repeat(251), [steps.id]: { html: true }, [foreign.id]: 'x', abc: 'y' }),
        [`fields.${foreign.id}`, `fields.${site.id}`, `fields.${steps.id}`, 'fields.abc'].sort()
      )
      assert.deepEqual(await check({ [plan.id]: 'Basic', [steps.id]: 's'.repeat(10000) }), { [plan.id]: 'Basic', [steps.id]: 's'.repeat(10000) })
      assert.deepEqual(await checkFieldAnswers(h.store, other.id, {}), {}, 'optional fields need no answer')
    })
  })
})
