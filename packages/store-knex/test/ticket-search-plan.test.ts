import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createHelpdesk, parseListQuery, Role, ticketList, type Helpdesk, type Page, type Ticket, type User, SYSTEM } from '@helpdesk/core'
import { testDialects, type KnexStore } from '../src/index.js'
import { planTicketSearch, SEARCH_COUNT_LIMIT } from '../src/repositories/ticket-search.js'
import { migratedStore } from './test-store.js'

const TICKETS = 3000
const OWNERS = 40
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet']

interface Seeded { store: KnexStore, helpdesk: Helpdesk, admin: User, owners: User[], ids: number[] }

/**
 * A database with enough tickets (through the bulk import path) for the
 * planners to prefer indexes: each of WORDS is in a tenth of the tickets
 * ("selective"), `lorem` in all of them ("common"), and 70 rare words share
 * the prefix `zq` (more than a prefix expands into).
 */
async function seeded (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<Seeded> {
  const store = await migratedStore(t, dialect)
  const helpdesk = createHelpdesk({ store })
  const category = await helpdesk.categories.create(SYSTEM, { name: 'General' })
  const owners: User[] = []
  for (let i = 0; i < OWNERS; i++) {
    owners.push(await store.users.create({ role: Role.Customer, first_name: `First${i}`, last_name: `Last${i}`, email: `owner${i}@example.com`, status: 1, password_hash: null }))
  }
  const admin = await store.users.create({ role: Role.Admin, first_name: 'Ada', last_name: 'Admin', email: 'ada@example.com', status: 1, password_hash: null })
  const ids = await helpdesk.tickets.importMany(Array.from({ length: TICKETS }, (_, i) => ({
    user_id: owners[i % OWNERS]!.id,
    category_id: category.id,
    title: `Ticket ${i} about ${WORDS[i % WORDS.length]}`,
    body: `<p>Body of ticket ${i}: ${WORDS[(i * 7) % WORDS.length]} serial${i} zq${String(i % 70).padStart(2, '0')} ${'lorem ipsum dolor sit amet '.repeat(20)}</p>`,
    purchase_code: `code-${i}`,
    private: i % 3 !== 0,
    // Times run against ids, so a sort by time is not the id order.
    created_at: new Date(Date.UTC(2024, 0, 1) + ((i * 7919) % TICKETS) * 60_000).toISOString().slice(0, 19).replace('T', ' '),
    comments: i % 10 === 0 ? [{ user_id: admin.id, body: `Answer ${i}` }] : []
  })))
  await store.knex.raw('analyze')
  return { store, helpdesk, admin, owners, ids }
}

interface Issued { sql: string, bindings: unknown[] }

async function search (s: Seeded, actor: User, text: string, sort = '-created_at'): Promise<{ page: Page<Ticket>, issued: Issued[] }> {
  const issued: Issued[] = []
  const listener = (q: { sql: string, bindings: unknown[] }): void => { issued.push({ sql: q.sql.replace(/\$\d+/g, '?'), bindings: q.bindings }) }
  s.store.knex.on('query', listener)
  try {
    return { page: await s.helpdesk.tickets.list(actor, parseListQuery(ticketList, { filters: { search: text }, sort })), issued }
  } finally {
    s.store.knex.off('query', listener)
  }
}

async function plan (store: KnexStore, { sql, bindings }: Issued): Promise<string> {
  if (store.dialect.name === 'postgres') {
    const result = await store.knex.raw(`explain ${sql}`, bindings as never) as { rows: Array<Record<string, string>> }
    return result.rows.map((r) => r['QUERY PLAN']).join('\n')
  }
  const rows = await store.knex.raw(`explain query plan ${sql}`, bindings as never) as Array<{ detail: string }>
  return rows.map((r) => r.detail).join('\n')
}

/**
 * A search's read of the matching ticket ids: a statement of its own, or on PostgreSQL one that
 * reads it with the search's other independent reads (`union all`, each row tagged with its part).
 */
const documentRead = /^select ([`"]tickets[`"]\.[`"]id[`"]|\d+ as part, id) from/

/** The tickets `actor` may see whose text has `word`, sorted newest first, by brute force. */
async function expected (s: Seeded, actor: User, word: string): Promise<number[]> {
  const rows = await s.store.knex('tickets').select('id', 'created_at', 'user_id', 'private', 'body', 'title')
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]) as Array<{ id: number, user_id: number, private: number | boolean, body: string, title: string }>
  return rows
    .filter((r) => actor.role !== Role.Customer || r.user_id === actor.id || !r.private)
    .filter((r) => new RegExp(`\\b${word}`, 'i').test(`${r.title} ${r.body}`))
    .map((r) => r.id)
}

for (const dialect of testDialects()) {
  describe(`ticket search plans on ${dialect}`, () => {
    it('answers a selective search from the index, lists just its ids, and counts exactly', async (t) => {
      const s = await seeded(t, dialect)
      for (const actor of [s.admin, s.owners[3]!]) {
        const { page, issued } = await search(s, actor, 'foxtrot')
        const all = await expected(s, actor, 'foxtrot')
        assert.equal(page.total, all.length)
        assert.equal(page.totalIsLowerBound, undefined)
        assert.deepEqual(page.items.map((i) => i.id), all.slice(0, 15))
        // The first read: the matching ids the list may show, driven by the full-text index.
        const candidates = issued.find((q) => documentRead.test(q.sql) && /match|@@/.test(q.sql))
        assert.ok(candidates !== undefined, issued.map((q) => q.sql).join('\n'))
        const explained = await plan(s.store, candidates)
        // Staff search their own document (with the internal notes); a customer the full one on their own tickets.
        const document = actor === s.admin ? 'staff_' : ''
        if (dialect === 'postgres') assert.match(explained, new RegExp(`Bitmap Index Scan on tickets_${document}search_document_index`), explained)
        else {
          assert.match(explained, new RegExp(`SCAN tickets_${document}search VIRTUAL TABLE INDEX \\d+:M`), explained)
          assert.match(explained, /SEARCH tickets USING INTEGER PRIMARY KEY/, explained)
        }
        const pageQuery = issued.findLast((q) => /order by/i.test(q.sql)) as Issued
        const pagePlan = await plan(s.store, pageQuery)
        assert.doesNotMatch(pagePlan, /search_document @@|tickets_(staff_|public_)?search/, `the page reads only the listed ids:\n${pagePlan}`)
        // SQLite looks the ids up; PostgreSQL weighs that against its sort's index (filtering by the ids), never a full scan.
        if (dialect === 'sqlite') assert.match(pagePlan, /SEARCH tickets USING INTEGER PRIMARY KEY/, pagePlan)
        else assert.doesNotMatch(pagePlan, /Seq Scan/, pagePlan)
      }
    })

    it('answers a common search along the sort\'s index, with a lower-bound total, and the same tickets brute force finds', async (t) => {
      const s = await seeded(t, dialect)
      assert.equal((await planTicketSearch(s.store.knex, s.store.dialect, 'lorem', s.store.knex('tickets').select('tickets.id'), { all: true })).kind, 'common')
      for (const actor of [s.admin, s.owners[5]!]) {
        const { page, issued } = await search(s, actor, 'lorem')
        assert.equal(page.total, SEARCH_COUNT_LIMIT)
        assert.equal(page.totalIsLowerBound, true)
        assert.deepEqual(page.items.map((i) => i.id), (await expected(s, actor, 'lorem')).slice(0, 15))
        if (dialect === 'sqlite') {
          const pagePlan = await plan(s.store, issued.findLast((q) => /order by/i.test(q.sql)) as Issued)
          assert.match(pagePlan, /SCAN tickets USING (COVERING )?INDEX tickets_created_at_id_index/, pagePlan)
          assert.doesNotMatch(pagePlan, /TEMP B-TREE/, pagePlan)
        }
      }
      const older = await search(s, s.admin, 'lorem', 'created_at')
      assert.deepEqual(older.page.items.map((i) => i.id), (await expected(s, s.admin, 'lorem')).reverse().slice(0, 15))
    })

    it('answers a missing word without reading a ticket, and expands a prefix into the indexed words', async (t) => {
      const s = await seeded(t, dialect)
      const missing = await search(s, s.admin, 'zyzzyva')
      assert.equal(missing.page.total, 0)
      assert.ok(!missing.issued.some((q) => /select .* from [`"]?tickets[`"]? /i.test(q.sql) && /order by/i.test(q.sql)), 'no page query')
      const prefix = await search(s, s.admin, 'foxtr')
      assert.equal(prefix.page.total, (await expected(s, s.admin, 'foxtrot')).length)
      // 70 words start with "zq": past what a prefix expands into, so the index's own prefix query answers.
      const wide = await search(s, s.admin, 'zq')
      assert.equal(wide.page.total, SEARCH_COUNT_LIMIT)
      assert.equal((await search(s, s.admin, 'zq07')).page.total, TICKETS / 70 | 0 + (7 < TICKETS % 70 ? 1 : 0))
    })

    it('finds tickets by id and by a part of the owner\'s email through indexes too', async (t) => {
      const s = await seeded(t, dialect)
      const byId = await search(s, s.admin, String(s.ids[42]))
      assert.ok(byId.page.items.some((i) => i.id === s.ids[42]))
      const byEmail = await search(s, s.admin, 'wner7@exam')
      assert.equal(byEmail.page.total, TICKETS / OWNERS)
      const owners = byEmail.issued.find((q) => /users/.test(q.sql)) as Issued
      const explained = await plan(s.store, owners)
      if (dialect === 'sqlite') assert.match(explained, /SCAN users_substring VIRTUAL TABLE INDEX \d+:M/, explained)
      else {
        await s.store.knex.transaction(async (trx) => {
          await trx.raw('set local enable_seqscan = off')
          const users = await trx.raw(`explain ${owners.sql}`, owners.bindings as never) as { rows: Array<Record<string, string>> }
          const text = users.rows.map((r) => r['QUERY PLAN']).join('\n')
          assert.match(text, /users_email_trgm_index/, text)
        })
      }
    })

    it('answers a customer from the public document on others\' tickets and the full one on their own, both through indexes', async (t) => {
      const s = await seeded(t, dialect)
      const customer = s.owners[3]!
      const { page, issued } = await search(s, customer, 'foxtrot')
      assert.deepEqual(page.items.map((i) => i.id), (await expected(s, customer, 'foxtrot')).slice(0, 15))
      const candidates = issued.filter((q) => documentRead.test(q.sql) && /match|@@/.test(q.sql))
      const publicBranch = candidates.find((q) => /public_search/.test(q.sql)) as Issued
      assert.ok(publicBranch !== undefined, issued.map((q) => q.sql).join('\n'))
      const publicPlan = await plan(s.store, publicBranch)
      if (dialect === 'postgres') assert.match(publicPlan, /Bitmap Index Scan on tickets_public_search_document_index/, publicPlan)
      else {
        assert.match(publicPlan, /SCAN tickets_public_search VIRTUAL TABLE INDEX \d+:M/, publicPlan)
        assert.match(publicPlan, /SEARCH tickets USING (INTEGER PRIMARY KEY|INDEX tickets_private_id_index \(private=\? AND id=\?)/, publicPlan)
      }
      // PostgreSQL reads both branches (and the owners) with one statement.
      const ownBranch = candidates.find((q) => dialect === 'postgres' || !/public_search/.test(q.sql)) as Issued
      assert.ok(ownBranch !== undefined, issued.map((q) => q.sql).join('\n'))
      const ownPlan = await plan(s.store, ownBranch)
      if (dialect === 'postgres') assert.doesNotMatch(ownPlan, /Seq Scan on tickets/, ownPlan)
      else assert.match(ownPlan, /SCAN tickets_search VIRTUAL TABLE INDEX \d+:M|SEARCH tickets USING (COVERING )?INDEX/, ownPlan)
      // Another owner's purchase code does not match for a customer, the customer's own does; staff match both.
      const publicOther = s.ids[2406]!
      assert.equal((await s.store.tickets.findById(publicOther))?.private, false)
      assert.deepEqual((await search(s, customer, 'code-2406')).page.items, [])
      assert.deepEqual((await search(s, s.admin, 'code-2406')).page.items.map((i) => i.id), [publicOther])
      assert.deepEqual((await search(s, customer, 'code-2403')).page.items.map((i) => i.id), [s.ids[2403]])
      assert.deepEqual((await search(s, customer, 'Ticket 2406')).page.items.map((i) => i.id), [publicOther])
      // The owner's email matches for staff and the owner only; names for everyone who sees the ticket.
      assert.equal((await search(s, customer, 'owner6@example')).page.total, 0)
      assert.equal((await search(s, customer, 'owner3@example')).page.total, TICKETS / OWNERS)
      assert.equal((await search(s, customer, 'First6')).page.items.every((i) => i.user_id === s.owners[6]!.id && !i.private), true)
      assert.ok((await search(s, customer, 'First6')).page.total > 0)
      // A common search keeps the sort's index for a customer too.
      const common = await search(s, customer, 'lorem')
      assert.equal(common.page.totalIsLowerBound, true)
      assert.deepEqual(common.page.items.map((i) => i.id), (await expected(s, customer, 'lorem')).slice(0, 15))
      if (dialect === 'sqlite') {
        const pagePlan = await plan(s.store, common.issued.findLast((q) => /order by/i.test(q.sql)) as Issued)
        assert.match(pagePlan, /SCAN tickets USING (COVERING )?INDEX tickets_created_at_id_index/, pagePlan)
      }
    })

    it('imports in bulk inside one transaction, search documents included', async (t) => {
      const s = await seeded(t, dialect)
      const comments = await s.store.knex('comments').count({ n: '*' }).first() as { n: number | string }
      assert.equal(Number(comments.n), TICKETS / 10)
      const first = await s.store.tickets.findById(s.ids[0]!)
      assert.deepEqual([first?.title, first?.status, first?.private, first?.additional.purchase_code], ['Ticket 0 about alpha', 1, false, 'code-0'])
      // A failing item rolls the whole import back.
      await assert.rejects(s.helpdesk.tickets.importMany([
        { user_id: s.admin.id, category_id: first!.category_id, title: 'fine', body: 'fine' },
        { user_id: s.admin.id, category_id: 99999, title: '', body: 'x' }
      ]), (error: Error & { errors?: Record<string, string[]> }) => {
        assert.deepEqual(Object.keys(error.errors ?? {}).sort(), ['1.category_id', '1.title'])
        return true
      })
      const total = await s.store.knex('tickets').count({ n: '*' }).first() as { n: number | string }
      assert.equal(Number(total.n), TICKETS)
    })
  })
}
