import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createHelpdesk, parseListQuery, Role, ticketList, type Helpdesk, type User } from '@helpdesk/core'
import { createKnexStore, createTestDatabase, testDialects, type KnexStore } from '../src/index.js'

const TICKETS = 3000
const OWNERS = 40
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet']

interface Seeded { store: KnexStore, helpdesk: Helpdesk, admin: User, ids: number[] }

/** A database with enough tickets (through the bulk import path) for the planner to prefer indexes. */
async function seeded (t: TestContext, dialect: 'sqlite' | 'postgres'): Promise<Seeded> {
  const db = await createTestDatabase(dialect)
  const store = createKnexStore({ url: db.url })
  t.after(async () => { await store.close(); await db.drop() })
  await store.migrate()
  const helpdesk = createHelpdesk({ store })
  const category = await helpdesk.categories.create(null, { name: 'General' })
  const owners: User[] = []
  for (let i = 0; i < OWNERS; i++) {
    owners.push(await store.users.create({ role: Role.Customer, first_name: `First${i}`, last_name: `Last${i}`, email: `owner${i}@example.com`, status: 1, password_hash: null }))
  }
  const admin = await store.users.create({ role: Role.Admin, first_name: 'Ada', last_name: 'Admin', email: 'ada@example.com', status: 1, password_hash: null })
  const ids = await helpdesk.tickets.importMany(Array.from({ length: TICKETS }, (_, i) => ({
    user_id: owners[i % OWNERS]!.id,
    category_id: category.id,
    title: `Ticket ${i} about ${WORDS[i % WORDS.length]}`,
    body: `<p>Body of ticket ${i}: ${WORDS[(i * 7) % WORDS.length]} serial${i} ${'lorem ipsum dolor sit amet '.repeat(20)}</p>`,
    purchase_code: `code-${i}`,
    comments: i % 10 === 0 ? [{ user_id: admin.id, body: `Answer ${i}` }] : []
  })))
  await store.knex.raw('analyze')
  return { store, helpdesk, admin, ids }
}

interface Issued { sql: string, bindings: unknown[] }

/** Runs a search through the repository; returns the ids found and its count and page queries (`?` placeholders). */
async function searchQuery (s: Seeded, text: string): Promise<{ queries: Issued[], ids: number[] }> {
  const seen: Array<{ sql: string, bindings: unknown[] }> = []
  const listener = (q: { sql: string, bindings: unknown[] }): void => { seen.push(q) }
  s.store.knex.on('query', listener)
  try {
    const page = await s.helpdesk.tickets.list(s.admin, parseListQuery(ticketList, { filters: { search: text }, sort: '-created_at' }))
    const queries = seen.filter((q) => /search_document|tickets_search|"users"|`users`/.test(q.sql))
    assert.equal(queries.length, 2, 'one count and one page query')
    return { queries: queries.map((q) => ({ sql: q.sql.replace(/\$\d+/g, '?'), bindings: q.bindings })), ids: page.items.map((i) => i.id) }
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

for (const dialect of testDialects()) {
  describe(`ticket search plan on ${dialect}`, () => {
    it('answers a search from the full-text index, never by scanning ticket bodies', async (t) => {
      const s = await seeded(t, dialect)
      assert.equal(s.ids.length, TICKETS)
      for (const [text, expected] of [['serial1234', [s.ids[1234]]], ['code-2345', [s.ids[2345]]], ['foxtrot serial5', null]] as const) {
        const query = await searchQuery(s, text)
        if (expected !== null) assert.deepEqual(query.ids, expected, text)
        for (const issued of query.queries) {
          const explained = await plan(s.store, issued)
          if (dialect === 'postgres') {
            assert.match(explained, /Bitmap Index Scan on tickets_search_document_index/, explained)
            assert.doesNotMatch(explained, /Filter: .*search_document @@/, `no sequential recheck of documents:\n${explained}`)
            assert.doesNotMatch(explained, /Seq Scan on tickets/, explained)
          } else {
            assert.match(explained, /SCAN tickets_search VIRTUAL TABLE INDEX \d+:M/, explained)
            assert.match(explained, /SEARCH tickets USING (INTEGER PRIMARY KEY|COVERING INDEX)/, explained)
            assert.doesNotMatch(explained, /^SCAN tickets\b/m, explained)
          }
        }
      }
    })

    it('finds tickets by id and by owner through indexes too', async (t) => {
      const s = await seeded(t, dialect)
      const byId = await searchQuery(s, String(s.ids[42]))
      assert.ok(byId.ids.includes(s.ids[42]!))
      const byEmail = await searchQuery(s, 'owner7@example.com')
      assert.equal(byEmail.ids.length, 15)
      for (const issued of byEmail.queries) {
        const explained = await plan(s.store, issued)
        assert.match(explained, /tickets_user_id_created_at_index/, explained)
      }
      if (dialect === 'postgres') {
        // Substring matches of owners' names and emails can use the trigram indexes (the planner prefers a scan of a tiny table).
        await s.store.knex.transaction(async (trx) => {
          await trx.raw('set local enable_seqscan = off')
          const users = await trx.raw("explain select id from users where email ilike '%wner7@exa%' or first_name ilike '%irst7%'") as { rows: Array<Record<string, string>> }
          const text = users.rows.map((r) => r['QUERY PLAN']).join('\n')
          assert.match(text, /users_email_trgm_index/, text)
          assert.match(text, /users_first_name_trgm_index/, text)
        })
      }
    })

    it('imports in bulk inside one transaction, search documents included', async (t) => {
      const s = await seeded(t, dialect)
      const comments = await s.store.knex('comments').count({ n: '*' }).first() as { n: number | string }
      assert.equal(Number(comments.n), TICKETS / 10)
      const first = await s.store.tickets.findById(s.ids[0]!)
      assert.deepEqual([first?.title, first?.status, first?.private, first?.additional.purchase_code], ['Ticket 0 about alpha', 1, true, 'code-0'])
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
