import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ForbiddenError, jobQuery, NotFoundError, UserStatus, ValidationError, SYSTEM } from '@helpdesk/core'
import { buildApp, eachDialect } from './helpers.js'

// The service methods and the `maintenance` port that trusted callers (the CLI, the plugin's host
// mapping, the webhook job, the KB pages) use now that `Helpdesk` no longer exposes its store.
eachDialect((dialect) => {
  describe(`trusted callers on ${dialect}`, () => {
    it('exposes services and the maintenance port, never the store or the context', async (t) => {
      const h = await buildApp(t, dialect)
      assert.equal('context' in h.helpdesk, false)
      assert.equal('store' in h.helpdesk, false)
      assert.deepEqual(Object.keys(h.helpdesk.maintenance).sort(), ['hasAdministrator', 'hashPassword', 'optimize', 'ping'])
      await h.helpdesk.maintenance.ping()
      await h.helpdesk.maintenance.optimize()
    })

    it('finds a user by id or email whatever their status, null when none', async (t) => {
      const h = await buildApp(t, dialect)
      const { user } = await h.user('customer', { email: 'found@example.com' })
      await h.store.users.update(user.id, { status: UserStatus.Banned })
      assert.equal((await h.helpdesk.auth.findUser({ id: user.id }))?.email, 'found@example.com')
      const byEmail = await h.helpdesk.auth.findUser({ email: ' found@example.com ' })
      assert.equal(byEmail?.id, user.id)
      assert.equal(byEmail?.status, UserStatus.Banned)
      assert.equal(await h.helpdesk.auth.findUser({ id: 999999 }), null)
      assert.equal(await h.helpdesk.auth.findUser({ email: 'nobody@example.com' }), null)
    })

    it('tells whether an administrator exists', async (t) => {
      const h = await buildApp(t, dialect)
      await h.user('agent')
      assert.equal(await h.helpdesk.maintenance.hasAdministrator(), false)
      await h.user('admin')
      assert.equal(await h.helpdesk.maintenance.hasAdministrator(), true)
    })

    it('creates agents in bulk with one shared hash, checked like one by one, and sets categories without an actor', async (t) => {
      const h = await buildApp(t, dialect)
      const hash = await h.helpdesk.maintenance.hashPassword('shared-password')
      const category = await h.helpdesk.categories.create(SYSTEM, { name: 'Billing' })
      await assert.rejects(
        h.helpdesk.agents.createMany(SYSTEM, [{ first_name: 'Ok', last_name: 'Fine', email: 'ok@example.com' }, { first_name: '', last_name: 'X', email: 'not-an-email' }], hash),
        (error: unknown) => error instanceof ValidationError && '1.first_name' in error.errors && '1.email' in error.errors
      )
      assert.equal(await h.helpdesk.auth.findUser({ email: 'ok@example.com' }), null, 'nothing written when one is invalid')
      const ids = await h.helpdesk.agents.createMany(SYSTEM, [
        { first_name: 'Ana', last_name: 'One', email: 'ana@example.com' },
        { first_name: 'Ben', last_name: 'Two', email: 'ben@example.com' }
      ], hash)
      assert.equal(ids.length, 2)
      await h.helpdesk.agents.setCategories(SYSTEM, ids[0]!, [category.id])
      const { token } = await h.helpdesk.auth.login('ben@example.com', 'shared-password')
      assert.ok(token.length > 0)
      const admin = await h.user('admin')
      assert.deepEqual((await h.helpdesk.agents.categories(admin.user, ids[0]!)).map((c) => c.id), [category.id])
      await assert.rejects(h.helpdesk.agents.setCategories(SYSTEM, ids[1]!, [999999]), ValidationError)
      // A customer is not an agent, trusted caller or not.
      const customer = await h.user('customer')
      await assert.rejects(h.helpdesk.agents.setCategories(SYSTEM, customer.user.id, [category.id]), NotFoundError)
      await assert.rejects(h.helpdesk.agents.setCategories(customer.user, ids[1]!, [category.id]), ForbiddenError)
    })

    it('lists webhooks, categories and jobs for a trusted caller, and retries a job', async (t) => {
      const h = await buildApp(t, dialect)
      const { endpoint } = await h.helpdesk.webhooks.create(SYSTEM, { url: 'https://hooks.example.com/x', events: ['Tickets.TicketCreated'] })
      assert.deepEqual((await h.helpdesk.webhooks.list(SYSTEM)).map((e) => e.id), [endpoint.id])
      await h.helpdesk.categories.create(SYSTEM, { name: 'General' })
      const categories = await h.helpdesk.categories.list(SYSTEM, { include: [], sort: [], partial: {}, exact: {}, page: 1, perPage: 100 })
      assert.deepEqual(categories.items.map((c) => c.name), ['General'])
      const [id] = await h.store.jobs.enqueue([{ type: 'test.job', payload: {} }])
      await h.store.jobs.fail(id!, 'boom', null)
      assert.deepEqual((await h.helpdesk.jobs.list(jobQuery({ status: ['failed'] }))).items.map((j) => j.id), [id])
      assert.equal(await h.helpdesk.jobs.retry(id!), true)
      assert.deepEqual((await h.helpdesk.jobs.list(jobQuery({ status: ['pending'], type: 'test.job' }))).items.map((j) => j.id), [id])
      assert.equal(await h.helpdesk.jobs.retry(999999), false)
    })
  })
})
