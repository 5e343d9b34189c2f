import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Knex } from 'knex'
import { Role, type ListQuery } from '@helpdesk/core'
import { testDialects } from '../src/index.js'
import { migrations, migrationSource } from '../src/migrations/index.js'
import { describeSchema, type SchemaDescription } from './schema-description.js'
import { emptyStore } from './test-store.js'

/** The last migration whose schema is pinned by a committed snapshot; later ones may come and go. */
const SNAPSHOT_AT = '0008-search-at-scale'
const snapshotFile = (dialect: string): string => fileURLToPath(new URL(`./fixtures/schema-${SNAPSHOT_AT.slice(0, 4)}.${dialect}.json`, import.meta.url))

/** A migration source holding the migrations up to and including `last`. */
function sourceUpTo (last: string): Knex.MigrationSource<unknown> {
  const end = migrations.findIndex((m) => m.name === last)
  assert.ok(end >= 0, `no migration ${last}`)
  return { ...migrationSource, getMigrations: async () => migrations.slice(0, end + 1) } as Knex.MigrationSource<unknown>
}

/** Applies the migrations one `migrate.up` at a time; returns their names in the order applied. */
async function migrateStepByStep (knex: Knex, source: Knex.MigrationSource<unknown> = migrationSource as Knex.MigrationSource<unknown>): Promise<string[]> {
  const applied: string[] = []
  for (;;) {
    const [, names] = await knex.migrate.up({ migrationSource: source }) as [number, string[]]
    if (names.length === 0) return applied
    applied.push(...names)
  }
}

function assertSameSchema (actual: SchemaDescription, expected: SchemaDescription, message: string): void {
  for (const kind of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
    assert.deepEqual(actual[kind] ?? [], expected[kind] ?? [], `${message}: ${kind}s differ`)
  }
}

const query = (partial: Record<string, string> = {}): ListQuery =>
  ({ include: [], sort: [{ field: 'id', desc: false }], partial, exact: {}, page: 1, perPage: 100 })

for (const dialect of testDialects()) {
  describe(`migration history on ${dialect}`, () => {
    it('migrating step by step from the first migration gives the schema of a fresh migrate()', async (t) => {
      const stepwise = await emptyStore(t, dialect)
      assert.deepEqual(await migrateStepByStep(stepwise.knex), migrations.map((m) => m.name))
      const fresh = await emptyStore(t, dialect)
      await fresh.migrate()
      assertSameSchema(await describeSchema(stepwise.knex), await describeSchema(fresh.knex), 'step by step vs fresh')
    })

    it(`the schema after ${SNAPSHOT_AT} is the committed snapshot (old migrations never change)`, async (t) => {
      const store = await emptyStore(t, dialect)
      await migrateStepByStep(store.knex, sourceUpTo(SNAPSHOT_AT))
      const schema = await describeSchema(store.knex)
      const file = snapshotFile(dialect)
      if (process.env.HELPDESK_WRITE_SCHEMA_SNAPSHOT === '1') writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`)
      assert.ok(existsSync(file), `missing ${file}: HELPDESK_WRITE_SCHEMA_SNAPSHOT=1 writes it (only ever for a new snapshot point)`)
      assertSameSchema(schema, JSON.parse(readFileSync(file, 'utf8')) as SchemaDescription, `schema at ${SNAPSHOT_AT} vs snapshot`)

      // The same state reached in one go.
      const once = await emptyStore(t, dialect)
      await once.knex.migrate.latest({ migrationSource: sourceUpTo(SNAPSHOT_AT) })
      assertSameSchema(await describeSchema(once.knex), schema, `latest up to ${SNAPSHOT_AT} vs step by step`)
    })

    it('upgrades a database holding the first release\'s data without losing a row; search and counts work on old rows', async (t) => {
      const store = await emptyStore(t, dialect)
      await store.knex.migrate.latest({ migrationSource: sourceUpTo('0002-tickets') })
      const before = await firstReleaseData(store.knex, dialect)

      await store.migrate()
      assert.deepEqual(await store.pendingMigrations(), [])
      for (const [table, count] of Object.entries(before.counts)) {
        const [row] = await store.knex(table).count({ n: '*' }) as Array<{ n: number | string }>
        assert.equal(Number(row?.n), count, `${table} kept every row`)
      }

      const all = { tickets: { all: true as const }, comments: { all: true as const }, viewerId: before.adminId }
      const everything = await store.tickets.list(all, query())
      assert.equal(everything.items.length, before.counts.tickets)
      assert.equal(everything.total, before.counts.tickets, 'the total (from the count table filled by 0007) counts the old tickets')
      const open = await store.tickets.list(all, { ...query(), exact: { status: ['1'] } })
      assert.equal(open.total, before.openTickets)

      const byWord = await store.tickets.list(all, query({ search: 'invoice' }))
      assert.deepEqual(byWord.items.map((i) => i.title), ['Invoice shows the wrong VAT number'])
      const byPrefix = await store.tickets.list(all, query({ search: 'refu' }))
      assert.deepEqual(byPrefix.items.map((i) => i.title), ['Refund for a duplicate order'], 'prefixes expand over words indexed before 0008')
      const byOwner = await store.tickets.list(all, query({ search: 'mstro' }))
      assert.deepEqual(byOwner.items.map((i) => i.title).sort(), ['Cannot log in after password reset', 'Invoice shows the wrong VAT number'],
        'owner substrings found through the trigram index')

      // 0027: the documents of old tickets hold their comments: a reply for everyone who reads it, a note for staff only.
      const byReply = await store.tickets.list(all, query({ search: 'attached' }))
      assert.deepEqual(byReply.items.map((i) => i.title), ['Invoice shows the wrong VAT number'], 'an old reply is found')
      const byNote = await store.tickets.list(all, query({ search: 'accounting' }))
      assert.deepEqual(byNote.items.map((i) => i.title), ['Invoice shows the wrong VAT number'], 'an old note is found by staff')
      const owner = { tickets: { ownerOrPublic: before.customerId }, comments: { repliesFor: before.customerId }, viewerId: before.customerId }
      assert.deepEqual((await store.tickets.list(owner, query({ search: 'attached' }))).items.map((i) => i.title), ['Invoice shows the wrong VAT number'])
      assert.deepEqual((await store.tickets.list(owner, query({ search: 'accounting' }))).items, [], 'never by the owner')

      // 0030: a ticket closed before closings were counted has its first resolution, so its owner may rate it.
      const closed = everything.items.filter((i) => i.status === 3)
      assert.equal(closed.length, 1)
      for (const ticket of everything.items) {
        const resolutions = await store.satisfaction.ofTicket(ticket.id)
        assert.deepEqual(resolutions.map((r) => [r.resolution, r.closed_at, r.category_id, r.rating]), ticket.status === 3 ? [[1, ticket.updated_at, ticket.category_id, null]] : [])
      }

      // New writes keep working on the upgraded database.
      const category = await store.categories.findById(before.categoryId)
      assert.ok(category !== null)
      const created = await store.tickets.create({ user_id: before.customerId, creator_id: before.customerId, category_id: before.categoryId, status: 1, private: true, title: 'Shipping label missing', body: '<p>No label in the parcel</p>', additional: {} })
      assert.equal((await store.tickets.list(all, query())).total, before.counts.tickets + 1)
      assert.deepEqual((await store.tickets.list(all, query({ search: 'parcel' }))).items.map((i) => i.id), [created.id])
    })
  })
}

interface FirstRelease {
  counts: Record<string, number>
  openTickets: number
  adminId: number
  customerId: number
  categoryId: number
}

/**
 * Rows as the first release (migrations 0001-0002) wrote them, through SQL:
 * people, a token, categories, tickets with their search documents, replies,
 * notes, attachments and reads.
 */
async function firstReleaseData (knex: Knex, dialect: 'sqlite' | 'postgres'): Promise<FirstRelease> {
  const at = '2024-03-01 10:00:00'
  const times = { created_at: at, updated_at: at }
  const insert = async (table: string, row: Record<string, unknown>): Promise<number> => {
    const [r] = await knex(table).insert(row).returning('id') as Array<{ id: number } | number>
    return typeof r === 'object' ? r.id : Number(r)
  }
  const person = (role: number, first: string, last: string, email: string, marketplace: string | null = null): Record<string, unknown> =>
    ({ role, first_name: first, last_name: last, email, status: 1, marketplace_username: marketplace, permissions: '{}', ...times })
  const adminId = await insert('users', person(Role.Admin, 'Ada', 'Lovelace', 'ada@example.com'))
  const agentId = await insert('users', person(Role.Agent, 'Grace', 'Hopper', 'grace@example.com'))
  const customerId = await insert('users', person(Role.Customer, 'Neil', 'Armstrong', 'neil@example.com', 'neil_a'))
  const otherId = await insert('users', person(Role.Customer, 'Sally', 'Ride', 'sally@example.com'))
  await knex('api_tokens').insert({ user_id: adminId, name: 'CI', token_hash: 'a'.repeat(64), ...times })
  const categoryId = await insert('categories', { name: 'Billing', order: 1, purchase_verification: 0, ...times })
  const otherCategory = await insert('categories', { name: 'Accounts', order: 2, purchase_verification: 0, ...times })
  await knex('agent_categories').insert({ user_id: agentId, category_id: categoryId })
  await knex('customer_notes').insert({ customer_id: customerId, creator_id: agentId, text: 'Prefers email.', ...times })

  const tickets: Array<[number, number, number, string, string, number | null]> = [
    [customerId, categoryId, 1, 'Invoice shows the wrong VAT number', 'Our VAT id is missing a digit.', agentId],
    [customerId, otherCategory, 2, 'Cannot log in after password reset', 'The reset link says expired.', null],
    [otherId, categoryId, 1, 'Refund for a duplicate order', 'I was charged twice.', agentId],
    [otherId, categoryId, 3, 'Thanks for the quick help', 'All sorted now.', null]
  ]
  const owners = new Map([[customerId, 'Neil Armstrong neil example com neil a'], [otherId, 'Sally Ride sally example com']])
  const ticketIds: number[] = []
  for (const [userId, category, status, title, body, agent] of tickets) {
    const id = await insert('tickets', {
      user_id: userId, creator_id: userId, category_id: category, assigned_agent_id: agent, status, private: true,
      title, body: `<p>${body}</p>`, additional: '{}', agent_assigned_at: agent === null ? null : at, ...times
    })
    ticketIds.push(id)
    // The search document as the first release wrote it: plain lowercase words of the title, body and owner.
    const words = `${title} ${body} ${owners.get(userId)}`.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ')
    if (dialect === 'sqlite') await knex.raw('insert into tickets_search (rowid, document) values (?, ?)', [id, words])
    else await knex.raw(`update tickets set search_document = to_tsvector('simple', ?) where id = ?`, [words, id])
  }
  const commentId = await insert('comments', { ticket_id: ticketIds[0], user_id: agentId, body: '<p>Fixed, new invoice attached.</p>', preview: 'Fixed, new invoice attached.', type: 1, private: false, ...times })
  await insert('comments', { ticket_id: ticketIds[0], user_id: agentId, body: '<p>Checked with accounting.</p>', preview: 'Checked with accounting.', type: 2, private: false, ...times })
  await knex('attachments').insert({ id: '3f2b8c1e-6a4d-4c2f-9b1a-2d7e5f8a9c01', user_id: agentId, ticket_id: ticketIds[0], comment_id: commentId, name: 'invoice.pdf', file_name: 'invoice.pdf', mime_type: 'application/pdf', size: 18231, ...times })
  await knex('ticket_reads').insert({ ticket_id: ticketIds[0], user_id: customerId, read_at: at })

  const counts: Record<string, number> = {}
  for (const table of ['users', 'api_tokens', 'categories', 'agent_categories', 'customer_notes', 'tickets', 'comments', 'attachments', 'ticket_reads']) {
    const [row] = await knex(table).count({ n: '*' }) as Array<{ n: number | string }>
    counts[table] = Number(row?.n)
  }
  return { counts, openTickets: tickets.filter((ticket) => ticket[2] === 1).length, adminId, customerId, categoryId }
}

describe('migration sources', () => {
  it('import nothing but knex and their frozen copies (a live helper could change what an old migration does)', async () => {
    const { readdirSync } = await import('node:fs')
    const dir = new URL('../src/migrations/', import.meta.url)
    for (const file of readdirSync(dir).filter((f) => /^\d{4}-.*\.ts$/.test(f))) {
      const imports = [...readFileSync(new URL(file, dir), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1])
      for (const source of imports) assert.ok(source === 'knex' || source!.startsWith('./frozen/'), `${file} imports ${source}`)
    }
  })
})
