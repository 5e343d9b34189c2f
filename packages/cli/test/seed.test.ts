import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHelpdesk, parseListQuery, ticketList } from '@helpdesk/core'
import { createKnexStore, createTestDatabase, testDialects } from '@helpdesk/store-knex'
import { run } from '../src/program.js'
import { captureIo, testDatabase } from './in-process.js'


/** Rows of the generated data that say what was written, in a stable order. */
async function snapshot (url: string): Promise<{ tickets: unknown[], comments: number, customers: number, agents: number, categories: string[] }> {
  const store = createKnexStore({ url })
  try {
    const db = store.knex
    const tickets = await db('tickets').select('id', 'title', 'status', 'private', 'category_id', 'assigned_agent_id', 'created_at', 'updated_at').orderBy('id')
    const comments = await db('comments').count({ n: '*' }).first() as { n: number | string }
    const customers = await db('users').where('role', 3).count({ n: '*' }).first() as { n: number | string }
    const agents = await db('users').where('role', 2).count({ n: '*' }).first() as { n: number | string }
    const categories = (await db('categories').select('name').orderBy('id') as Array<{ name: string }>).map((c) => c.name)
    return { tickets: tickets.map((t) => ({ ...t, private: Boolean(t.private) })), comments: Number(comments.n), customers: Number(customers.n), agents: Number(agents.n), categories }
  } finally {
    await store.close()
  }
}

/** How many rows of each kind the demo content wrote. */
async function demoCounts (url: string): Promise<Record<string, number>> {
  const store = createKnexStore({ url })
  try {
    const counts: Record<string, number> = {}
    for (const table of ['users', 'categories', 'tickets', 'comments', 'attachments', 'custom_fields', 'canned_responses', 'article_collections', 'articles']) {
      const row = await store.knex(table).count({ n: '*' }).first() as { n: number | string }
      counts[table] = Number(row.n)
    }
    return counts
  } finally {
    await store.close()
  }
}

for (const dialect of testDialects()) {
  describe(`helpdesk seed on ${dialect}`, () => {
    it('writes demo tickets with replies, notes, an attachment, custom fields, canned responses and articles; twice adds nothing', async (t) => {
      const db = await createTestDatabase(dialect)
      const storage = mkdtempSync(join(tmpdir(), 'helpdesk-seed-storage-'))
      const saved = process.env.HELPDESK_STORAGE_DIR
      process.env.HELPDESK_STORAGE_DIR = storage
      t.after(async () => {
        if (saved === undefined) delete process.env.HELPDESK_STORAGE_DIR
        else process.env.HELPDESK_STORAGE_DIR = saved
        rmSync(storage, { recursive: true, force: true })
        await db.drop()
      })
      const io = captureIo()
      assert.equal(await run(['seed', '--database', db.url, '--json'], io), 0, io.stderr.join('\n'))
      const printed = JSON.parse(io.stdout[0] ?? '{}')
      assert.deepEqual(printed.demo, { tickets: 12, comments: 17, attachments: 1, customFields: 2, cannedResponses: 3, collections: 2, articles: 5 })
      const first = await demoCounts(db.url)
      assert.deepEqual(first, {
        users: 5, categories: 3, tickets: 12, comments: 17, attachments: 1, custom_fields: 2, canned_responses: 3, article_collections: 2, articles: 5
      })

      const store = createKnexStore({ url: db.url })
      t.after(async () => { await store.close() })
      const helpdesk = createHelpdesk({ store })
      const admin = await store.users.findByEmail('admin@example.com')
      const agent = await store.users.findByEmail('agent@example.com')
      // What a newcomer sees: statuses, assignments, notes, answers, a draft, the attachment's file.
      const tickets = await helpdesk.tickets.list(admin!, parseListQuery(ticketList, { per_page: 100, include: 'attachments-count,replies-count' }))
      assert.equal(tickets.total, 12)
      for (const status of [1, 2, 3]) assert.ok(tickets.items.some((x) => x.status === status), `a ticket of status ${status}`)
      assert.ok(tickets.items.some((x) => x.assigned_agent_id === agent!.id) && tickets.items.some((x) => x.assigned_agent_id === null))
      // The demo agent holds a real agent's permissions, so the console shows them the assign control.
      assert.deepEqual(agent!.permissions, { view_all_tickets: false, manage_customers: true, manage_articles: true, assign_tickets: true, delete_tickets: false })
      assert.ok(tickets.items.some((x) => !x.private))
      assert.equal(tickets.items.filter((x) => Number(x.attachments_count) > 0).length, 1)
      assert.ok(tickets.items.some((x) => Object.keys(x.additional.fields ?? {}).length > 0), 'custom-field answers')
      const notes = await store.knex('comments').where('type', 2).count({ n: '*' }).first() as { n: number | string }
      assert.ok(Number(notes.n) >= 2, 'internal notes')
      const drafts = await store.knex('articles').whereNull('published_at').count({ n: '*' }).first() as { n: number | string }
      assert.equal(Number(drafts.n), 1)
      const attachment = await store.knex('attachments').first() as { file_name: string, ticket_id: number | null }
      assert.ok(attachment.ticket_id !== null, 'linked to its ticket')
      assert.ok(existsSync(join(storage, attachment.file_name)), 'stored where serve looks (HELPDESK_STORAGE_DIR)')
      const found = await helpdesk.tickets.list(admin!, parseListQuery(ticketList, { filters: { search: 'invoice' } }))
      assert.ok(found.total >= 1, 'demo tickets are searchable')
      const customer = await store.users.findByEmail('maria.garcia@example.com')
      assert.ok((await helpdesk.auth.login('maria.garcia@example.com', 'customer-password')).user.id === customer!.id)

      const again = captureIo()
      assert.equal(await run(['seed', '--database', db.url, '--json'], again), 0)
      assert.deepEqual(JSON.parse(again.stdout[0] ?? '{}').demo, { tickets: 0, comments: 0, attachments: 0, customFields: 0, cannedResponses: 0, collections: 0, articles: 0 })
      assert.deepEqual(await demoCounts(db.url), first, 'running seed twice adds nothing')
    })
  })

  describe(`helpdesk seed --tickets on ${dialect}`, () => {
    it('generates realistic, reproducible volume data through the bulk paths, with the demo accounts', async (t) => {
      const [first, second] = [await createTestDatabase(dialect), await createTestDatabase(dialect)]
      t.after(async () => { await first.drop(); await second.drop() })
      const args = ['--tickets', '240', '--customers', '40', '--comments-per-ticket', '2', '--agents', '6', '--categories', '5', '--seed', '42', '--json']
      const io = captureIo()
      assert.equal(await run(['seed', '--database', first.url, ...args], io), 0, io.stderr.join('\n'))
      const printed = JSON.parse(io.stdout[0] ?? '{}')
      assert.deepEqual(printed.accounts.map((a: { email: string }) => a.email), ['admin@example.com', 'agent@example.com', 'customer@example.com'])
      assert.deepEqual([printed.volume.tickets, printed.volume.customers, printed.volume.agents, printed.volume.categories], [240, 40, 6, 5])

      const seeded = await snapshot(first.url)
      assert.equal(seeded.tickets.length, 240)
      assert.equal(seeded.customers, 40 + 1, 'plus the demo customer')
      assert.equal(seeded.agents, 6 + 1, 'plus the demo agent')
      assert.equal(seeded.comments, printed.volume.comments)
      assert.ok(seeded.comments > 240 && seeded.comments < 3 * 240, `${seeded.comments} comments for about two per ticket`)
      // The demo seed's three categories come first, then the plan's others.
      assert.deepEqual(seeded.categories.slice(0, 3), ['General', 'Billing', 'Technical support'])
      assert.equal(seeded.categories.length, 5)
      const tickets = seeded.tickets as Array<{ title: string, status: number, private: boolean, assigned_agent_id: number | null, created_at: string }>
      for (const status of [1, 2, 3]) assert.ok(tickets.some((x) => x.status === status), `status ${status} appears`)
      assert.ok(tickets.some((x) => x.private) && tickets.some((x) => !x.private))
      assert.ok(tickets.some((x) => x.assigned_agent_id === null) && tickets.some((x) => x.assigned_agent_id !== null))
      assert.ok(new Set(tickets.map((x) => x.title)).size > 100, 'varied titles')
      const years = new Set(tickets.map((x) => x.created_at.slice(0, 4)))
      assert.ok(years.size >= 3, `dates over years: ${[...years].join(', ')}`)
      assert.deepEqual(tickets.map((x) => x.created_at), [...tickets.map((x) => x.created_at)].sort(), 'oldest first, so ids follow time')

      const again = captureIo()
      assert.equal(await run(['seed', '--database', second.url, ...args], again), 0)
      assert.deepEqual(await snapshot(second.url), seeded, 'the same seed writes the same data')

      // The generated accounts log in; the demo agent works in every category.
      const store = createKnexStore({ url: first.url })
      t.after(async () => { await store.close() })
      const agent = await store.users.findByEmail('agent@example.com')
      assert.equal((await store.users.categoryIds(agent!.id)).length, 5)
      const searchable = await store.knex('tickets').count({ n: '*' }).first() as { n: number | string }
      assert.equal(Number(searchable.n), 240)
    })

    it('refuses to write the same seed twice, and refuses bad flags in one line', async (t) => {
      const db = await testDatabase(t, dialect)
      assert.equal(await run(['seed', '--database', db.url, '--tickets', '20', '--customers', '5', '--seed', '3', '--json'], captureIo()), 0)
      const twice = captureIo()
      assert.equal(await run(['seed', '--database', db.url, '--tickets', '20', '--customers', '5', '--seed', '3'], twice), 1)
      assert.match(twice.stderr.join('\n'), /already holds the data of --seed 3/)
      assert.equal(await run(['seed', '--database', db.url, '--tickets', '20', '--customers', '5', '--seed', '4', '--json'], captureIo()), 0)
      assert.equal((await snapshot(db.url)).tickets.length, 40, 'another seed adds its own data')
      for (const bad of [['--tickets', 'many'], ['--tickets', '10', '--customers', '0'], ['--comments-per-ticket', '-1'], ['--categories', '101']]) {
        const io = captureIo()
        assert.equal(await run(['seed', '--database', db.url, ...bad], io), 1, bad.join(' '))
        assert.equal(io.stderr.length, 1)
        assert.match(io.stderr[0] ?? '', /^error: --[a-z-]+ must be an integer from \d+ to \d+/)
      }
    })
  })
}
