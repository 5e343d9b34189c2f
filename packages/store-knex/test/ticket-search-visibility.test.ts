import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createHelpdesk, parseListQuery, Role, ticketList, type Helpdesk, type User, SYSTEM } from '@helpdesk/core'
import { testDialects } from '../src/index.js'
import { migrationSource } from '../src/migrations/index.js'
import { migratedStore } from './test-store.js'

const found = async (helpdesk: Helpdesk, actor: User, text: string): Promise<number[]> =>
  (await helpdesk.tickets.list(actor, parseListQuery(ticketList, { filters: { search: text }, per_page: 100 }))).items.map((i) => i.id).sort((a, b) => a - b)

/**
 * The public search document (CONTRACT §17) is written by the bulk import
 * path, and migration 0009 builds it for tickets that existed before it.
 */
for (const dialect of testDialects()) {
  describe(`the public search document on ${dialect}`, () => {
    it('is written by imports and backfilled by its migration', async (t) => {
      const store = await migratedStore(t, dialect)
      const helpdesk = createHelpdesk({ store })
      const category = await helpdesk.categories.create(SYSTEM, { name: 'General' })
      const person = async (name: string, role = Role.Customer): Promise<User> =>
        await store.users.create({ role, first_name: name, last_name: 'Tester', email: `${name.toLowerCase()}@mail.test`, status: 1, password_hash: null })
      const [alice, bob, admin] = [await person('Alice'), await person('Bob'), await person('Ada', Role.Admin)]
      const ids = await helpdesk.tickets.importMany([
        { user_id: bob.id, category_id: category.id, title: 'Gearbox grinds', body: '<p>Since Monday.</p>', purchase_code: 'pc-7781-secret', private: false },
        { user_id: bob.id, category_id: category.id, title: 'Gearbox private', body: 'x', purchase_code: 'pc-7781-other', private: true }
      ])
      const check = async (): Promise<void> => {
        assert.deepEqual(await found(helpdesk, alice, 'Gearbox'), [ids[0]])
        assert.deepEqual(await found(helpdesk, alice, 'Monday'), [ids[0]])
        assert.deepEqual(await found(helpdesk, alice, 'Bob'), [ids[0]])
        assert.deepEqual(await found(helpdesk, alice, 'pc-7781'), [])
        assert.deepEqual(await found(helpdesk, alice, 'bob@mail'), [])
        assert.deepEqual(await found(helpdesk, bob, 'pc-7781'), ids)
        assert.deepEqual(await found(helpdesk, admin, 'pc-7781-secret'), [ids[0]])
      }
      await check()
      // Back to before 0009, then forward again: the migration indexes what is there.
      await store.knex.migrate.down({ migrationSource, name: '0009-search-visibility' })
      assert.deepEqual(await store.pendingMigrations(), ['0009-search-visibility'])
      await store.migrate()
      await check()
    })
  })
}
