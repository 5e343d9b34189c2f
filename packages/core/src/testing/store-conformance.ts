import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ValidationError } from '../errors.js'
import { jobQuery } from '../jobs/job.js'
import type { ListQuery } from '../list/list-query.js'
import type { Store } from '../store.js'
import { staffCategoryCounts, type Category } from '../categories/category.js'
import type { TicketScope } from '../tickets/ticket-policy.js'
import type { Ticket } from '../tickets/ticket.js'
import { noPermissions, Role, type User } from '../users/user.js'
import { aTicket, conformanceClock, everything, newTicket, person, query, type ConformanceContext, type ConformanceStore, type WithStore } from './conformance-support.js'
import { eventLogConformance } from './event-log-conformance.js'
import { jobStoreConformance } from './job-store-conformance.js'
import { mailStoreConformance } from './mail-store-conformance.js'
import { webhookStoreConformance } from './webhook-store-conformance.js'
import { signInConformance } from './sign-in-conformance.js'
import { satisfactionConformance } from './satisfaction-conformance.js'
import { historyAuditConformance } from './history-audit-conformance.js'
import { presenceConformance } from './presence-conformance.js'
import { draftConformance } from './draft-conformance.js'

export type { ConformanceClock, ConformanceContext, ConformanceStore } from './conformance-support.js'

export interface StoreConformanceOptions {
  /** Prefixes the suite's name (e.g. the database it runs on). */
  name?: string
  /** Parallel writers in the counter test (default 8). */
  writers?: number
}

/**
 * The rules every `Store` adapter must keep, as node:test suites: the
 * conventions of `Store` (find* null, update/delete of a missing id
 * null/false, unique violations as the domain's ValidationError on the
 * field), transactions (nested calls join the outer one; a failure rolls
 * back everything), the auth revision, search documents kept in step with
 * tickets and their owners, exact ticket counts under concurrent writes,
 * list includes loaded in batch, and the contracts of the jobs, webhook,
 * mail, event-log and draft repositories (one file each beside this one). Call it
 * at the top level of a test file; the store `makeStore` returns must take
 * "now" from `context.clock` (a clock the suite moves by hand):
 *
 *   runStoreConformance(async ({ clock }) => { const store = ...(clock); await store.migrate(); return { store, close: () => store.close() } })
 */
export function runStoreConformance (makeStore: (context: ConformanceContext) => Promise<ConformanceStore>, options: StoreConformanceOptions = {}): void {
  const writers = options.writers ?? 8
  const withStore: WithStore = async (fn) => {
    const clock = conformanceClock()
    const s = await makeStore({ clock })
    try {
      await fn({ ...s, clock })
    } finally {
      await s.close()
    }
  }

  describe(`${options.name ?? 'store'} conformance`, () => {
    describe('conventions', () => {
      it('find* returns null when nothing matches; update and delete of a missing id return null and false', async () => {
        await withStore(async ({ store }) => {
          const missing = 987654
          assert.equal(await store.users.findById(missing), null)
          assert.equal(await store.users.findByEmail('nobody@example.com'), null)
          assert.equal(await store.categories.findById(missing), null)
          assert.equal(await store.tickets.findById(missing), null)
          assert.equal(await store.comments.findById(missing), null)
          assert.equal(await store.customerNotes.findById(missing), null)
          assert.equal(await store.attachments.findById('00000000-0000-4000-8000-000000000000'), null)
          assert.equal(await store.users.update(missing, { first_name: 'X' }), null)
          assert.equal(await store.categories.update(missing, { name: 'X' }), null)
          assert.equal(await store.tickets.update(missing, { title: 'X' }), null)
          assert.equal(await store.comments.update(missing, { body: 'X' }), null)
          assert.equal(await store.users.delete(missing), false)
          assert.equal(await store.categories.delete(missing), false)
          assert.equal(await store.tickets.delete(missing), false)
          assert.equal(await store.comments.delete(missing), false)
          assert.equal(await store.customerNotes.delete(missing), false)
          assert.equal(await store.tokens.deleteForUser(missing, missing), false)
        })
      })

      it('users.findMany: the users of the ids that exist, in the order asked, in one query', async () => {
        await withStore(async ({ store, statements }) => {
          const ada = await store.users.create(person(Role.Admin, 'ada@example.com'))
          const bob = await store.users.create(person(Role.Customer, 'bob@example.com'))
          assert.deepEqual(await store.users.findMany([]), [])
          const before = statements?.() ?? 0
          assert.deepEqual(await store.users.findMany([bob.id, 987654, ada.id]), [bob, ada])
          if (statements !== undefined) assert.equal(statements() - before, 1)
        })
      })

      it('tickets.findByIds: the tickets of the ids that exist, as findById reads them, in one query', async () => {
        await withStore(async ({ store, statements }) => {
          const { ticketId: first } = await aTicket(store, 'first@example.com')
          const { ticketId: second } = await aTicket(store, 'second@example.com')
          assert.deepEqual(await store.tickets.findByIds([]), [])
          const before = statements?.() ?? 0
          const found = await store.tickets.findByIds([second, 987654, first])
          if (statements !== undefined) assert.equal(statements() - before, 1)
          assert.deepEqual(found.sort((a, b) => a.id - b.id), [await store.tickets.findById(first), await store.tickets.findById(second)])
        })
      })

      it('a unique violation becomes a ValidationError on the field (422), emails compared case-insensitively', async () => {
        await withStore(async ({ store }) => {
          const ada = await store.users.create(person(Role.Admin, 'ada@example.com'))
          const grace = await store.users.create(person(Role.Agent, 'grace@example.com'))
          await assertEmailTaken(store.users.create(person(Role.Customer, 'ADA@example.com')))
          await assertEmailTaken(store.users.update(grace.id, { email: 'Ada@Example.com' }))
          assert.equal((await store.users.findByEmail('ADA@EXAMPLE.COM'))?.id, ada.id, 'findByEmail is case-insensitive')
          assert.equal((await store.users.findById(grace.id))?.email, 'grace@example.com', 'the refused update wrote nothing')
          // Inside a transaction too, and the transaction is then rolled back whole.
          await assertEmailTaken(store.transaction(async (tx) => {
            await tx.categories.create({ name: 'Written before the violation', order: 1 })
            await tx.users.create(person(Role.Customer, 'ada@EXAMPLE.com'))
          }))
          assert.equal((await store.categories.list(query(), staffCategoryCounts)).total, 0)
        })
      })
    })

    describe('transactions', () => {
      it('nested calls join the outer transaction: a failure after them rolls every write back', async () => {
        await withStore(async ({ store }) => {
          await assert.rejects(store.transaction(async (tx) => {
            await tx.categories.create({ name: 'Outer', order: 1 })
            await tx.transaction(async (inner) => {
              await inner.categories.create({ name: 'Inner', order: 2 })
              await inner.users.create(person(Role.Customer, 'inner@example.com'))
            })
            assert.equal((await tx.categories.list(query(), staffCategoryCounts)).total, 2, 'the outer transaction sees the nested writes')
            throw new Error('boom')
          }), /boom/)
          assert.equal((await store.categories.list(query(), staffCategoryCounts)).total, 0)
          assert.equal(await store.users.findByEmail('inner@example.com'), null)
        })
      })

      it('commits everything together when nothing fails, and returns the callback\'s value', async () => {
        await withStore(async ({ store }) => {
          const result = await store.transaction(async (tx) => {
            const a = await tx.categories.create({ name: 'A', order: 1 })
            const b = await tx.transaction(async (inner) => await inner.categories.create({ name: 'B', order: 2 }))
            return [a.id, b.id]
          })
          assert.equal(result.length, 2)
          assert.deepEqual((await store.categories.list(query(), staffCategoryCounts)).items.map((c) => c.name).sort(), ['A', 'B'])
        })
      })
    })

    describe('event stream', () => {
      it('the event notifier hears the ids a transaction appended once it commits, never those of a rollback', async () => {
        await withStore(async ({ store }) => {
          const heard: number[] = []
          const stop = await store.eventNotifier.listen({ ids: (ids) => { heard.push(...ids) }, resync: () => {} })
          try {
            const event = { type: 'Test.Happened', actor_id: null, ticket_id: null, payload: {} }
            await assert.rejects(store.transaction(async (tx) => {
              await tx.eventLog.append([event])
              throw new Error('boom')
            }), /boom/)
            const ids = await store.transaction(async (tx) => [...await tx.eventLog.append([event]), ...await tx.eventLog.append([event])])
            const until = Date.now() + 5000
            while (heard.length < ids.length && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10))
            assert.deepEqual(heard, ids)
          } finally {
            await stop()
          }
        })
      })

      it('reads the notifications written by given events for several users at once, and unread counts per user', async () => {
        await withStore(async ({ store }) => {
          const ann = await store.users.create(person(Role.Agent, 'ann@example.com'))
          const bob = await store.users.create(person(Role.Agent, 'bob@example.com'))
          const [first, second] = await store.eventLog.append([
            { type: 'Tickets.TicketCreated', actor_id: null, ticket_id: null, payload: {} },
            { type: 'Tickets.TicketCreated', actor_id: null, ticket_id: null, payload: {} }
          ])
          const note = (userId: number, eventId: number | undefined) => ({ user_id: userId, type: 'Tickets.TicketCreated', data: { author_id: null }, author_id: null, ticket_id: null, event_id: eventId ?? null })
          await store.notifications.createMany([note(ann.id, first), note(bob.id, first), note(ann.id, second)])
          const found = await store.notifications.forEvents([ann.id, bob.id], [first ?? 0])
          assert.deepEqual(found.map((f) => [f.notification.user_id, f.event_id]).sort(), [[ann.id, first], [bob.id, first]].sort())
          assert.deepEqual(await store.notifications.forEvents([bob.id], [second ?? 0]), [])
          const counts = await store.notifications.unreadCounts([ann.id, bob.id])
          assert.equal(counts.get(ann.id), 2)
          assert.equal(counts.get(bob.id), 1)
        })
      })
    })

    describe('auth revision', () => {
      it('moves with every change to a user or their tokens (a login\'s last_login_at alone aside)', async () => {
        await withStore(async ({ store }) => {
          const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
          const other = await store.users.create(person(Role.Customer, 'other@example.com'))
          const category = await store.categories.create({ name: 'General', order: 1 })
          const token = await store.tokens.create({ user_id: agent.id, name: 'ci', token_hash: 'a'.repeat(64) })
          await store.tokens.create({ user_id: agent.id, name: 'laptop', token_hash: 'b'.repeat(64) })

          const moves = async (what: string, change: () => Promise<unknown>): Promise<void> => {
            const before = await store.tokens.revision()
            await change()
            assert.ok(await store.tokens.revision() > before, `${what} moves the auth revision`)
          }
          const stays = async (what: string, change: () => Promise<unknown>): Promise<void> => {
            const before = await store.tokens.revision()
            await change()
            assert.equal(await store.tokens.revision(), before, `${what} leaves the auth revision`)
          }
          await stays('a login (last_login_at)', async () => await store.users.update(agent.id, { last_login_at: '2024-01-01 00:00:00' }))
          await moves('a name change', async () => await store.users.update(agent.id, { first_name: 'Renamed' }))
          await moves('a status change (ban)', async () => await store.users.update(agent.id, { status: 3 }))
          await moves('a password change', async () => await store.users.update(agent.id, { password_hash: 'x' }))
          await moves('a permissions change', async () => await store.users.update(agent.id, { permissions: { ...noPermissions(), view_all_tickets: true } }))
          await moves('an email change', async () => await store.users.update(agent.id, { email: 'agent2@example.com' }))
          await moves('a change of the agent\'s categories', async () => await store.users.setCategories(agent.id, [category.id]))
          await moves('deleting a token', async () => await store.tokens.deleteForUser(agent.id, token.id))
          await moves('deleting all of a user\'s tokens', async () => await store.tokens.deleteAllForUser(agent.id))
          await moves('deleting a user', async () => await store.users.delete(other.id))
          const found = await store.tokens.findUserByHash('c'.repeat(64))
          assert.equal(found, null)
        })
      })

      it('a token lookup returns the revision read with it', async () => {
        await withStore(async ({ store }) => {
          const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
          await store.tokens.create({ user_id: agent.id, name: null, token_hash: 'd'.repeat(64) })
          await store.users.update(agent.id, { first_name: 'Moved' })
          const found = await store.tokens.findUserByHash('d'.repeat(64))
          assert.ok(found !== null)
          assert.equal(found.user.id, agent.id)
          assert.equal(found.authRevision, await store.tokens.revision())
        })
      })
    })

    describe('sessions', () => {
      it('tells sessions from personal tokens, records uses forward only, and leaves the auth revision on a use', async () => {
        await withStore(async ({ store }) => {
          const user = await store.users.create(person(Role.Agent, 'agent@example.com'))
          const session = await store.tokens.create({ user_id: user.id, name: 'session', token_hash: 'e'.repeat(64), session: true, user_agent: 'Firefox', ip: '10.0.0.1' })
          await store.tokens.create({ user_id: user.id, name: 'login', token_hash: 'f'.repeat(64) })
          const found = await store.tokens.findUserByHash('e'.repeat(64))
          assert.equal(found?.token.session, true)
          assert.equal(found?.token.last_used_at, session.created_at, 'a token starts used')
          const personal = await store.tokens.findUserByHash('f'.repeat(64))
          assert.equal(personal?.token.session, false, 'a personal token is no session, whatever its name')
          assert.equal(personal?.token.last_used_at, personal?.token.created_at)
          const before = await store.tokens.revision()
          await store.tokens.recordUse(session.id, '2999-01-02 00:00:00')
          await store.tokens.recordUse(session.id, '2999-01-01 00:00:00')
          assert.equal((await store.tokens.findUserByHash('e'.repeat(64)))?.token.last_used_at, '2999-01-02 00:00:00')
          assert.equal(await store.tokens.revision(), before, 'a use revokes nothing')
        })
      })

      it('lists a user\'s live sessions, ends them (moving the auth revision) and removes the expired ones (not moving it)', async () => {
        await withStore(async ({ store }) => {
          const user = await store.users.create(person(Role.Agent, 'agent@example.com'))
          const other = await store.users.create(person(Role.Customer, 'other@example.com'))
          const recent = await store.tokens.create({ user_id: user.id, name: 'session', token_hash: '1'.repeat(64), session: true, user_agent: 'Firefox', ip: '10.0.0.1' })
          const idle = await store.tokens.create({ user_id: user.id, name: 'login', token_hash: '2'.repeat(64), session: true })
          const others = await store.tokens.create({ user_id: other.id, name: 'login', token_hash: '3'.repeat(64), session: true })
          const personal = await store.tokens.create({ user_id: user.id, name: 'ci', token_hash: '4'.repeat(64) })
          await store.tokens.recordUse(recent.id, '2999-01-02 00:00:00')
          await store.tokens.recordUse(others.id, '2999-01-02 00:00:00')
          const byUse = { sessionsCreatedAfter: '2000-01-01 00:00:00', sessionsUsedAfter: '2999-01-01 00:00:00', tokensUsedAfter: null }
          const listed = await store.tokens.listSessions(user.id, byUse, { ...query(), sort: [{ field: 'last_used_at', desc: true }] })
          assert.deepEqual(listed.items, [{ id: recent.id, name: 'session', created_at: recent.created_at, last_used_at: '2999-01-02 00:00:00', user_agent: 'Firefox', ip: '10.0.0.1' }])
          assert.equal(listed.total, 1)
          const noIdle = { ...byUse, sessionsUsedAfter: null }
          const both = await store.tokens.listSessions(user.id, noIdle, { ...query(), sort: [{ field: 'last_used_at', desc: true }], perPage: 1 })
          assert.deepEqual([both.total, both.items.map((s) => s.id)], [2, [recent.id]])
          assert.equal((await store.tokens.listSessions(user.id, { ...noIdle, sessionsCreatedAfter: '2999-01-01 00:00:00' }, query())).total, 0)

          let revision = await store.tokens.revision()
          assert.equal(await store.tokens.deleteExpired(byUse, 10), 1, 'the idle session goes; the personal token and the used sessions stay')
          assert.equal(await store.tokens.findUserByHash('2'.repeat(64)), null)
          assert.equal(await store.tokens.revision(), revision, 'expired tokens are refused already')
          assert.equal(await store.tokens.deleteExpired({ ...byUse, tokensUsedAfter: '2999-01-01 00:00:00' }, 10), 1, 'a personal token idle since its creation')
          assert.equal(await store.tokens.findUserByHash('4'.repeat(64)), null)
          assert.notEqual(idle.id, personal.id)

          assert.equal(await store.tokens.deleteSessionForUser(other.id, recent.id), false, 'not theirs')
          assert.equal(await store.tokens.deleteSessionForUser(user.id, others.id), false)
          const spare = await store.tokens.create({ user_id: user.id, name: 'login', token_hash: '5'.repeat(64), session: true })
          const kept = await store.tokens.create({ user_id: user.id, name: 'laptop', token_hash: '6'.repeat(64) })
          assert.equal(await store.tokens.deleteSessionForUser(user.id, kept.id), false, 'a personal token is no session')
          assert.equal(await store.tokens.deleteSessionsForUser(user.id, recent.id), 1)
          assert.ok(await store.tokens.revision() > revision, 'ending sessions moves the auth revision')
          assert.equal(await store.tokens.findUserByHash('5'.repeat(64)), null)
          assert.notEqual(await store.tokens.findUserByHash('1'.repeat(64)), null)
          assert.notEqual(await store.tokens.findUserByHash('6'.repeat(64)), null)
          revision = await store.tokens.revision()
          assert.equal(await store.tokens.deleteSessionForUser(user.id, recent.id), true)
          assert.ok(await store.tokens.revision() > revision)
          assert.notEqual(spare.id, kept.id)
          assert.equal(await store.tokens.deleteSessionsForUser(other.id, null), 1)
          assert.deepEqual((await store.tokens.listForUser(user.id)).map((token) => token.id), [kept.id])
        })
      })
    })

    describe('search documents', () => {
      it('every ticket write and every owner rename reindexes: found by the new words, not the old', async () => {
        await withStore(async ({ store }) => {
          const owner = await store.users.create({ ...person(Role.Customer, 'owner@example.com'), first_name: 'Wilhelmina', last_name: 'Quarrington' })
          const category = await store.categories.create({ name: 'General', order: 1 })
          const scope = everything(owner.id)
          const titles = async (text: string): Promise<string[]> =>
            (await store.tickets.list(scope, query({ search: text }))).items.map((t) => t.title)

          const ticket = await store.tickets.create(newTicket(owner.id, category.id, { title: 'Printer jams on duplex', body: '<p>The <b>spooler</b> crashes</p>' }))
          assert.deepEqual(await titles('duplex'), ['Printer jams on duplex'], 'created: found by its title')
          assert.deepEqual(await titles('spooler'), ['Printer jams on duplex'], 'created: found by its body text')
          assert.deepEqual(await titles('dupl'), ['Printer jams on duplex'], 'the last word matches as a prefix')
          assert.deepEqual(await titles('wilhelmina'), ['Printer jams on duplex'], 'found by its owner\'s name')

          await store.tickets.update(ticket.id, { title: 'Scanner offline', body: '<p>Firmware mismatch</p>' })
          assert.deepEqual(await titles('scanner'), ['Scanner offline'], 'updated title: found by the new words')
          assert.deepEqual(await titles('firmware'), ['Scanner offline'], 'updated body: found by the new words')
          assert.deepEqual(await titles('duplex'), [], 'not by the old title')
          assert.deepEqual(await titles('spooler'), [], 'not by the old body')

          await store.users.update(owner.id, { first_name: 'Bartholomew', last_name: 'Zinnemann' })
          assert.deepEqual(await titles('bartholomew'), ['Scanner offline'], 'owner renamed: found by the new name')
          assert.deepEqual(await titles('zinnemann'), ['Scanner offline'])
          assert.deepEqual(await titles('wilhelmina'), [], 'not by the old name')
          assert.deepEqual(await titles('quarrington'), [], 'not by the old name')

          await store.tickets.delete(ticket.id)
          assert.deepEqual(await titles('scanner'), [], 'deleted: found no more')
        })
      })

      it('moving comments to another ticket (a merge, a split) reindexes both; a merge record is undone once', async () => {
        await withStore(async ({ store }) => {
          const owner = await store.users.create(person(Role.Customer, 'owner@example.com'))
          const category = await store.categories.create({ name: 'General', order: 1 })
          const scope = everything(owner.id)
          const titles = async (text: string): Promise<string[]> => (await store.tickets.list(scope, query({ search: text }))).items.map((t) => t.title)
          const alpha = await store.tickets.create(newTicket(owner.id, category.id, { title: 'Alpha' }))
          const beta = await store.tickets.create(newTicket(owner.id, category.id, { title: 'Beta' }))
          const comment = await store.comments.create({ ticket_id: alpha.id, user_id: owner.id, body: '<p>Xylophone tuning</p>', preview: 'Xylophone tuning', type: 1, private: false })
          assert.deepEqual(await titles('xylophone'), ['Alpha'])
          assert.deepEqual(await store.ticketMerges.moveComments([comment.id, 999999], alpha.id, beta.id), [comment.id], 'only comments on the source move')
          assert.deepEqual(await titles('xylophone'), ['Beta'], 'found by its comment on the ticket it moved to, not the old one')
          assert.deepEqual(await store.ticketMerges.moveComments([comment.id], alpha.id, beta.id), [])
          assert.deepEqual(await store.ticketMerges.commentsOf(beta.id), [{ id: comment.id, type: 1, private: false }])
          assert.deepEqual(await store.ticketMerges.commentsElsewhere([comment.id, 999999], beta.id), [], 'on the ticket, or on none (deleted)')
          assert.deepEqual(await store.ticketMerges.commentsElsewhere([comment.id], alpha.id), [comment.id])
          assert.deepEqual(await store.ticketMerges.commentsElsewhere([], alpha.id), [])

          const moves = {
            comment_ids: [comment.id], privatized_comment_ids: [], body_comment_id: null, body_attachment_ids: [], participant_ids: [],
            fields: { 3: 'red' }, purchase_code: null, source_status: 2, reopened_target_from: 3
          }
          const record = await store.ticketMerges.create({ kind: 'merge', source_id: alpha.id, target_id: beta.id, actor_id: null, moves })
          assert.deepEqual((await store.ticketMerges.activeMergeOf(alpha.id))?.moves, moves)
          assert.equal(await store.ticketMerges.activeMergeOf(beta.id), null, 'a merge is found by its source')
          assert.equal(await store.ticketMerges.markUndone(record.id, '2030-01-01 00:00:00'), true)
          assert.equal(await store.ticketMerges.markUndone(record.id, '2030-01-01 00:00:01'), false, 'undone once')
          assert.equal(await store.ticketMerges.activeMergeOf(alpha.id), null)
        })
      })

      it('a rolled-back write leaves the index as it was', async () => {
        await withStore(async ({ store }) => {
          const owner = await store.users.create(person(Role.Customer, 'owner@example.com'))
          const category = await store.categories.create({ name: 'General', order: 1 })
          const ticket = await store.tickets.create(newTicket(owner.id, category.id, { title: 'Keyboard sticky' }))
          await assert.rejects(store.transaction(async (tx) => {
            await tx.tickets.update(ticket.id, { title: 'Monitor flickers' })
            throw new Error('boom')
          }))
          const scope = everything(owner.id)
          assert.equal((await store.tickets.list(scope, query({ search: 'keyboard' }))).items.length, 1)
          assert.equal((await store.tickets.list(scope, query({ search: 'monitor' }))).items.length, 0)
        })
      })
    })

    describe('counts', () => {
      it(`ticket totals stay exact under ${writers} concurrent writers (creates, moves, status changes, deletes)`, async () => {
        await withStore(async ({ store }) => {
          const owner = await store.users.create(person(Role.Customer, 'owner@example.com'))
          const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
          const categories: Category[] = []
          for (let i = 0; i < 3; i++) categories.push(await store.categories.create({ name: `C${i}`, order: i }))
          const writer = async (w: number): Promise<void> => {
            for (let i = 0; i < 6; i++) {
              const category = categories[(w + i) % categories.length]!
              const created = await store.tickets.create(newTicket(owner.id, category.id, { title: `w${w} t${i}`, private: i % 2 === 0 }))
              if (i % 3 === 1) await store.tickets.update(created.id, { status: 2, assigned_agent_id: agent.id })
              if (i % 3 === 2) {
                await store.transaction(async (tx) => {
                  await tx.tickets.update(created.id, { category_id: categories[(w + i + 1) % categories.length]!.id, status: 3 })
                })
              }
              if (i === 5) await store.tickets.delete(created.id)
            }
          }
          await Promise.all(Array.from({ length: writers }, async (_, w) => { await writer(w) }))

          const scope = everything(agent.id)
          const all = await allTickets(store, scope)
          assert.equal(all.length, writers * 5)
          assert.equal((await store.tickets.list(scope, query())).total, all.length, 'the total counts every ticket')
          for (const category of categories) {
            for (const status of [1, 2, 3]) {
              const expected = all.filter((t) => t.category_id === category.id && t.status === status).length
              const page = await store.tickets.list(scope, { ...query(), exact: { categories: [String(category.id)], status: [String(status)] } })
              assert.equal(page.total, expected, `category ${category.name}, status ${status}`)
            }
          }
          const assigned = await store.tickets.list(scope, { ...query(), exact: { agents: [String(agent.id)] } })
          assert.equal(assigned.total, all.filter((t) => t.assigned_agent_id === agent.id).length)
          const listed = await store.categories.list({ ...query(), include: ['tickets-count'] }, staffCategoryCounts)
          for (const category of listed.items) {
            assert.equal(Number(category.tickets_count), all.filter((t) => t.category_id === category.id).length, `tickets_count of ${category.name}`)
          }
        })
      })
      it('tickets.countMany: each query\'s count as count and list give it, in one statement whatever the number of queries without a search', async () => {
        await withStore(async ({ store, statements }) => {
          const owner = await store.users.create(person(Role.Customer, 'owner@example.com'))
          const other = await store.users.create(person(Role.Customer, 'other@example.com'))
          const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
          const billing = await store.categories.create({ name: 'Billing', order: 1 })
          const sales = await store.categories.create({ name: 'Sales', order: 2 })
          const tickets: Array<[number, number, Partial<Ticket>]> = [
            [owner.id, billing.id, { title: 'Printer jam' }],
            [owner.id, billing.id, { title: 'Printer toner', private: true, status: 2 }],
            [owner.id, sales.id, { title: 'Invoice copy', status: 3 }],
            [other.id, sales.id, { title: 'Printer quote', private: true }],
            [other.id, sales.id, { title: 'Refund' }],
            [other.id, billing.id, { title: 'Password', status: 2 }]
          ]
          for (const [userId, categoryId, fields] of tickets) {
            const created = await store.tickets.create(newTicket(userId, categoryId, { title: fields.title ?? 'A ticket', status: fields.status ?? 1, private: fields.private ?? false }))
            if (fields.title === 'Printer quote' || fields.title === 'Refund') await store.tickets.update(created.id, { assigned_agent_id: agent.id })
          }
          const scopes: TicketScope[] = [
            everything(agent.id),
            { tickets: { categoryIds: [billing.id], assignedTo: agent.id }, comments: { all: true }, viewerId: agent.id },
            { tickets: { categoryIds: [], assignedTo: agent.id }, comments: { all: true }, viewerId: agent.id },
            { tickets: { ownerOrPublic: owner.id }, comments: { repliesFor: owner.id }, viewerId: owner.id }
          ]
          const q = (fields: Partial<ListQuery>): ListQuery => ({ ...query(), perPage: 1, ...fields })
          // Filters the counts answer, and filters counted with a COUNT that stops at a limit (owner fields, times).
          const plain: ListQuery[] = [
            q({}),
            q({ exact: { status: ['1', '2'] } }),
            q({ exact: { categories: [String(sales.id)], status: ['1'] } }),
            q({ exact: { agents: ['0'] } }),
            q({ exact: { agents: [String(agent.id)] } }),
            q({ exact: { agents: ['0', String(agent.id)], categories: [String(billing.id), String(sales.id)] } }),
            q({ partial: { email: 'other' } }),
            q({ since: { updated_since: '2000-01-01 00:00:00' } }),
            q({ since: { updated_since: '2999-01-01 00:00:00' } }),
            q({ exact: { priority: ['urgent'] } }),
            q({ exact: { merged: ['0'] }, partial: { last_name: 'Person' } }),
            q({ exact: { status: ['3'] } })
          ]
          const searches: ListQuery[] = [q({ partial: { search: 'printer' } }), q({ partial: { search: 'nothingmatches' } }), q({ partial: { search: 'refund' }, exact: { status: ['1'] } })]
          for (const scope of scopes) {
            const expected = await Promise.all([...plain, ...searches].map(async (one) => {
              const listed = await store.tickets.list(scope, one)
              assert.deepEqual(await store.tickets.count(scope, one), { total: listed.total, lowerBound: listed.totalIsLowerBound === true })
              return { total: listed.total, lowerBound: listed.totalIsLowerBound === true }
            }))
            assert.ok(expected.some((e) => e.total > 0), 'some queries count tickets')
            assert.deepEqual(await store.tickets.countMany(scope, []), [])
            const before = statements?.() ?? 0
            const three = await store.tickets.countMany(scope, plain.slice(0, 3))
            const afterThree = statements?.() ?? 0
            const twelve = await store.tickets.countMany(scope, plain)
            if (statements !== undefined) {
              assert.equal(afterThree - before, 1, 'three counts: one statement')
              assert.equal((statements() - afterThree), 1, 'twelve counts: one statement')
            }
            assert.deepEqual(three, expected.slice(0, 3))
            assert.deepEqual(twelve, expected.slice(0, plain.length))
            assert.deepEqual(await store.tickets.countMany(scope, [...searches, ...plain]), [...expected.slice(plain.length), ...expected.slice(0, plain.length)], 'searches among them')
          }
        })
      })
      it(`webhook failure counts and delivery attempts stay exact under ${writers} concurrent writers; a switch-off happens once and cancels what was pending`, async () => {
        await withStore(async ({ store }) => {
          const endpoint = await store.webhooks.create({ url: 'https://example.com/hook', events: ['*'], description: null, active: true, secret: 'whsec_test' })
          const ids = await store.webhooks.createDeliveries(Array.from({ length: writers * 3 }, (_, i) => ({ endpoint_id: endpoint.id, event_id: i + 1, event_type: 'Tickets.TicketCreated' })))
          const at = '2026-01-01 00:00:00'
          // Every writer records a failed attempt on every delivery, each in its own transaction, as delivery workers do.
          await Promise.all(Array.from({ length: writers }, async () => {
            for (const id of ids) {
              await store.transaction(async (tx) => {
                await tx.webhooks.recordFailure(endpoint.id, at)
                await tx.webhooks.recordAttempts([{ delivery_id: id, status: 'pending', response_status: 503, duration_ms: 1, error: 'HTTP 503', next_attempt_at: at }])
              })
            }
          }))
          const counted = await store.webhooks.findById(endpoint.id)
          assert.deepEqual([counted?.consecutive_failures, counted?.failing_since], [writers * ids.length, at], 'no failure lost')
          for (const work of await store.webhooks.deliveryWork(ids)) assert.equal(work.delivery.attempts, writers, `attempts of delivery ${work.delivery.id}`)
          // A batch of outcomes in one call; bodies kept where given.
          await store.webhooks.recordAttempts([
            { delivery_id: ids[0]!, status: 'succeeded', response_status: 200, duration_ms: 5, error: null, next_attempt_at: null, body: '{"id":1}' },
            { delivery_id: ids[1]!, status: 'failed', response_status: 400, duration_ms: 6, error: 'HTTP 400', next_attempt_at: null }
          ])
          const [first, second] = await store.webhooks.deliveryWork([ids[0]!, ids[1]!]).then((works) => works.sort((a, b) => a.delivery.id - b.delivery.id))
          assert.deepEqual([first?.delivery.status, first?.delivery.attempts, first?.body, first?.delivery.response_status], ['succeeded', writers + 1, '{"id":1}', 200])
          assert.deepEqual([second?.delivery.status, second?.delivery.attempts, second?.body, second?.delivery.error], ['failed', writers + 1, null, 'HTTP 400'])

          const switched = await Promise.all(Array.from({ length: writers }, async () => await store.transaction(async (tx) => await tx.webhooks.switchOff(endpoint.id, at, 'dropped'))))
          assert.equal(switched.filter(Boolean).length, 1, 'switched off once')
          const off = await store.webhooks.findById(endpoint.id)
          assert.deepEqual([off?.active, off?.disabled_at], [false, at])
          const statuses = (await store.webhooks.deliveryWork(ids)).map((work) => work.delivery.status)
          assert.deepEqual(statuses.filter((status) => status === 'cancelled').length, ids.length - 2, 'every pending delivery cancelled')
          assert.equal(await store.webhooks.recordFailure(endpoint.id, at), null, 'no failure counted once switched off')
          assert.equal((await store.webhooks.findById(endpoint.id))?.consecutive_failures, writers * ids.length)
          assert.equal(await store.webhooks.clearFailures(endpoint.id), false, 'a late success leaves the record that switched it off')
          await store.webhooks.update(endpoint.id, { active: true })
          assert.equal(await store.webhooks.clearFailures(endpoint.id), true)
          assert.equal(await store.webhooks.clearFailures(endpoint.id), false)
          assert.deepEqual([(await store.webhooks.findById(endpoint.id))?.consecutive_failures, (await store.webhooks.findById(endpoint.id))?.failing_since], [0, null])
        })
      })
      it(`mail send attempts and job claims stay exact under ${writers} concurrent writers`, async () => {
        await withStore(async ({ store }) => {
          const [mailId] = await store.mail.createOutbound([{
            kind: 'reply', message_id: '<conformance@example.com>', ticket_id: null, comment_id: null, user_id: null, author_id: null,
            recipient: 'someone@example.com', subject: 'Attempts', unsubscribe_token: null
          }])
          await Promise.all(Array.from({ length: writers }, async (_, w) => {
            await store.mail.recordSendAttempt(mailId!, { status: 'failed', error: `writer ${w}` })
          }))
          assert.equal((await store.mail.findById(mailId!))?.attempts, writers, 'no attempt lost')
          const jobIds = await store.jobs.enqueue(Array.from({ length: writers * 2 }, () => ({ type: 'conformance.job' })))
          const claimed = (await Promise.all(Array.from({ length: writers }, async (_, w) => await store.jobs.claim({ types: ['conformance.job'], limit: 2, leaseMs: 60_000, workerId: `w${w}` })))).flat()
          assert.deepEqual(claimed.map((job) => job.id).sort((a, b) => a - b), jobIds, 'each job claimed once')
          await store.jobs.complete(claimed.map((job) => job.id))
          assert.deepEqual((await store.jobs.list(jobQuery({ type: 'conformance.job', perPage: 100 }))).items.map((job) => [job.status, job.attempts]), jobIds.map(() => ['done', 1]))
        })
      })
    })

    describe('lists', () => {
      it('attach includes under their keys, loaded in batch whatever the page size', async () => {
        await withStore(async ({ store, statements }) => {
          const owner = await store.users.create(person(Role.Customer, 'owner@example.com'))
          const agent = await store.users.create(person(Role.Agent, 'agent@example.com'))
          const category = await store.categories.create({ name: 'General', order: 1 })
          for (let i = 0; i < 12; i++) {
            const ticket = await store.tickets.create(newTicket(owner.id, category.id, { title: `Ticket ${i}`, assigned_agent_id: agent.id }))
            await store.comments.create({ ticket_id: ticket.id, user_id: agent.id, body: '<p>Reply</p>', preview: 'Reply', type: 1, private: false })
          }
          const scope = everything(agent.id)
          const include = ['user', 'category', 'agent', 'replies-count', 'attachments-count', 'last_reply']
          const page = async (perPage: number): Promise<{ items: Array<Record<string, unknown>>, cost: number | null }> => {
            const before = statements?.() ?? 0
            const listed = await store.tickets.list(scope, { ...query(), include, perPage })
            return { items: listed.items, cost: statements === undefined ? null : statements() - before }
          }
          const small = await page(3)
          const large = await page(12)
          assert.equal(large.items.length, 12)
          for (const item of large.items) {
            assert.equal((item.user as User).id, owner.id)
            assert.equal((item.category as Category).id, category.id)
            assert.equal((item.agent as User).id, agent.id)
            assert.equal(Number(item.replies_count), 1)
            assert.equal(Number(item.attachments_count), 0)
            assert.ok(item.last_reply !== null && typeof item.last_reply === 'object')
          }
          if (small.cost !== null) assert.equal(large.cost, small.cost, 'a page of 12 costs the statements a page of 3 costs')
        })
      })
    })

    jobStoreConformance(withStore)
    webhookStoreConformance(withStore)
    mailStoreConformance(withStore)
    signInConformance(withStore)
    eventLogConformance(withStore)
    satisfactionConformance(withStore)
    historyAuditConformance(withStore)
    presenceConformance(withStore)
    draftConformance(withStore)
  })
}

async function allTickets (store: Store, scope: TicketScope): Promise<Ticket[]> {
  const out: Ticket[] = []
  for (let page = 1; ; page++) {
    const listed = await store.tickets.list(scope, { ...query(), page })
    out.push(...listed.items)
    if (listed.items.length < 100) return out
  }
}

async function assertEmailTaken (write: Promise<unknown>): Promise<void> {
  await assert.rejects(write, (error: unknown) => {
    assert.ok(error instanceof ValidationError, `expected a ValidationError, got ${String(error)}`)
    assert.equal(error.statusCode, 422)
    assert.ok((error.errors.email?.length ?? 0) > 0, 'the error names the email field')
    return true
  })
}
