import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { noPermissions, Role, UnavailableError, UserStatus, ValidationError, type NewUser } from '@helpdesk/core'
import { createKnexStore, testDialects, type KnexStore } from '../src/index.js'
import { migratedStore } from './test-store.js'

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

function person (email: string, role: NewUser['role'] = Role.Customer): NewUser {
  return { role, first_name: 'Pat', last_name: 'Doe', email, status: UserStatus.Active, password_hash: null }
}

async function count (store: KnexStore, table: string): Promise<number> {
  const row = await store.knex(table).count({ n: '*' }).first() as { n: number | string }
  return Number(row.n)
}

/** Asserts `promise` rejects with a ValidationError naming exactly `field`. */
async function rejectsOn (promise: Promise<unknown>, field: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ValidationError, `not a ValidationError: ${String(error)}`)
    assert.deepEqual(Object.keys(error.errors), [field])
    return true
  })
}

for (const dialect of testDialects()) {
  describe(`foundation store on ${dialect}`, () => {
    describe('unique emails', () => {
      it('turns a duplicate email into a ValidationError on `email`, ignoring case, on insert and update', async (t) => {
        const store = await migratedStore(t, dialect)
        await store.users.create(person('Sam@Example.com'))
        await rejectsOn(store.users.create(person('sam@example.com')), 'email')
        await rejectsOn(store.users.create(person('SAM@EXAMPLE.COM', Role.Agent)), 'email')
        const other = await store.users.create(person('other@example.com'))
        await rejectsOn(store.users.update(other.id, { email: 'sam@EXAMPLE.com' }), 'email')
        assert.equal((await store.users.findById(other.id))?.email, 'other@example.com')
        assert.equal(await count(store, 'users'), 2)
      })

      it('finds users by email case-insensitively', async (t) => {
        const store = await migratedStore(t, dialect)
        const created = await store.users.create(person('Mixed.Case@Example.com'))
        assert.equal((await store.users.findByEmail('mixed.case@example.COM'))?.id, created.id)
        assert.equal(await store.users.findByEmail('mixed@example.com'), null)
      })

      it('turns the violation into a ValidationError inside a transaction too, and rolls it back', async (t) => {
        const store = await migratedStore(t, dialect)
        await store.users.create(person('taken@example.com'))
        await rejectsOn(store.transaction(async (tx) => {
          await tx.users.create(person('fresh@example.com'))
          await tx.users.create(person('TAKEN@example.com'))
        }), 'email')
        assert.equal(await store.users.findByEmail('fresh@example.com'), null)
      })
    })

    describe('transactions', () => {
      it('commits everything written in one', async (t) => {
        const store = await migratedStore(t, dialect)
        const id = await store.transaction(async (tx) => {
          const user = await tx.users.create(person('a@example.com'))
          await tx.tokens.create({ user_id: user.id, name: 'x', token_hash: 'f'.repeat(64) })
          return user.id
        })
        assert.ok(await store.users.findById(id) !== null)
        assert.equal((await store.tokens.listForUser(id)).length, 1)
      })

      it('leaves nothing behind when the function throws, nested calls included', async (t) => {
        const store = await migratedStore(t, dialect)
        await assert.rejects(store.transaction(async (tx) => {
          const user = await tx.users.create(person('gone@example.com'))
          await tx.transaction(async (inner) => {
            await inner.tokens.create({ user_id: user.id, name: 'x', token_hash: 'e'.repeat(64) })
            await inner.categories.create({ name: 'Gone', order: 1 })
          })
          throw new Error('changed my mind')
        }), /changed my mind/)
        assert.equal(await count(store, 'users'), 0)
        assert.equal(await count(store, 'api_tokens'), 0)
        assert.equal(await count(store, 'categories'), 0)
      })

      it('rolls back a partial replacement of an agent\'s categories', async (t) => {
        const store = await migratedStore(t, dialect)
        const agent = await store.users.create(person('agent@example.com', Role.Agent))
        const category = await store.categories.create({ name: 'Kept', order: 1 })
        await store.users.setCategories(agent.id, [category.id])
        await assert.rejects(store.transaction(async (tx) => { await tx.users.setCategories(agent.id, [category.id, 999999]) }), ValidationError)
        assert.deepEqual(await store.users.categoryIds(agent.id), [category.id])
      })
    })

    describe('foreign keys', () => {
      it('rejects rows pointing at missing users as a ValidationError', async (t) => {
        const store = await migratedStore(t, dialect)
        await assert.rejects(store.tokens.create({ user_id: 424242, name: null, token_hash: 'd'.repeat(64) }), ValidationError)
        assert.equal(await count(store, 'api_tokens'), 0)
      })

      it('deletes a user\'s tokens and notes about them with them, and keeps notes they wrote without an author', async (t) => {
        const store = await migratedStore(t, dialect)
        const customer = await store.users.create(person('c@example.com'))
        const agent = await store.users.create(person('writer@example.com', Role.Agent))
        const other = await store.users.create(person('other@example.com'))
        await store.tokens.create({ user_id: customer.id, name: null, token_hash: 'c'.repeat(64) })
        await store.customerNotes.create({ customer_id: customer.id, creator_id: agent.id, text: 'about c' })
        const kept = await store.customerNotes.create({ customer_id: other.id, creator_id: agent.id, text: 'about other' })
        assert.equal(await store.users.delete(customer.id), true)
        assert.equal(await count(store, 'api_tokens'), 0)
        assert.equal(await count(store, 'customer_notes'), 1)
        await store.users.delete(agent.id)
        assert.equal((await store.customerNotes.findById(kept.id))?.creator_id, null)
      })
    })

    describe('token caps', () => {
      it('creates capped tokens one user at a time: a burst of concurrent creations stops at the cap', async (t) => {
        const store = await migratedStore(t, dialect)
        const user = await store.users.create(person('burst@example.com'))
        await store.tokens.create({ user_id: user.id, name: 'login', token_hash: '0'.repeat(64), session: true })
        const created = await Promise.all(Array.from({ length: 12 }, async (_, i) =>
          await store.tokens.createCapped({ user_id: user.id, name: `t${i}`, token_hash: i.toString(16).padStart(64, 'a') }, { max: 5 })))
        assert.equal(created.filter((token) => token !== null).length, 5)
        assert.equal((await store.tokens.listForUser(user.id)).length, 6, 'a session is not counted')
      })

      it('prunes a user\'s oldest sessions, and only those', async (t) => {
        const store = await migratedStore(t, dialect)
        const user = await store.users.create(person('prune@example.com'))
        const other = await store.users.create(person('other@example.com'))
        for (let i = 0; i < 4; i++) await store.tokens.create({ user_id: user.id, name: i % 2 === 0 ? 'login' : 'session', token_hash: i.toString(16).padStart(64, 'b'), session: true })
        await store.tokens.create({ user_id: user.id, name: 'login', token_hash: 'c'.repeat(64) })
        await store.tokens.create({ user_id: other.id, name: 'login', token_hash: 'd'.repeat(64), session: true })
        const before = await store.tokens.revision()
        assert.equal(await store.tokens.pruneSessions(user.id, 2), 2)
        assert.ok(await store.tokens.revision() > before, 'pruned tokens stop working at once (the auth revision moved)')
        assert.equal(await store.tokens.findUserByHash('0'.padStart(64, 'b')), null)
        assert.notEqual(await store.tokens.findUserByHash('3'.padStart(64, 'b')), null)
        assert.equal((await store.tokens.listForUser(user.id)).length, 3, 'a personal token named login is no session')
        assert.equal((await store.tokens.listForUser(other.id)).length, 1)
        assert.equal(await store.tokens.pruneSessions(user.id, 2), 0)
      })
    })

    describe('rows and entities', () => {
      it('round-trips booleans, permissions and datetimes the same way on both databases', async (t) => {
        const store = await migratedStore(t, dialect)
        const user = await store.users.create({ ...person('flags@example.com', Role.Agent), permissions: { ...noPermissions(), manage_customers: true } })
        assert.match(user.created_at, DATETIME)
        assert.equal(user.last_login_at, null)
        assert.deepEqual(user.notifications, { new_ticket: true, new_comment: true, ticket_reassigned: true })
        await store.users.setNotificationSettings(user.id, { new_ticket: false, new_comment: true, ticket_reassigned: false })
        await store.users.update(user.id, { last_login_at: '2024-02-29 23:59:58' })
        const read = await store.users.findById(user.id)
        assert.deepEqual(read?.notifications, { new_ticket: false, new_comment: true, ticket_reassigned: false })
        assert.deepEqual(read?.permissions, { ...noPermissions(), manage_customers: true })
        assert.equal(read?.last_login_at, '2024-02-29 23:59:58')
        assert.ok(!('password_hash' in (read as object)), 'a User never carries the password hash')
      })

      it('keeps the password hash out of every user read but the dedicated one', async (t) => {
        const store = await migratedStore(t, dialect)
        const user = await store.users.create({ ...person('hash@example.com'), password_hash: '$argon2id$v=19$secret' })
        assert.equal(await store.users.findPasswordHash(user.id), '$argon2id$v=19$secret')
        const token = await store.tokens.create({ user_id: user.id, name: null, token_hash: 'b'.repeat(64) })
        const reads = [
          await store.users.findById(user.id),
          await store.users.findByEmail('hash@example.com'),
          (await store.tokens.findUserByHash('b'.repeat(64)))?.user,
          await store.tokens.listForUser(user.id),
          token
        ]
        assert.ok(!JSON.stringify(reads).includes('argon2'))
        assert.ok(!JSON.stringify(reads).includes('b'.repeat(64)))
      })
    })

    if (dialect === 'postgres') {
      it('reports an unreachable database as UnavailableError', async () => {
        const store = createKnexStore({ url: 'postgres://postgres@127.0.0.1:1/none', knex: { acquireConnectionTimeout: 2000 } })
        try {
          await assert.rejects(store.ping(), UnavailableError)
          await assert.rejects(store.users.findById(1), UnavailableError)
        } finally {
          await store.close()
        }
      })
    }
  })
}
