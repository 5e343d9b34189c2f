import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createKnexStore, createTestDatabase, testDialects } from '@helpdesk/store-knex'
import { run } from '../src/program.js'
import type { CliIo } from '../src/io.js'

function captureIo (): CliIo & { stdout: string[], stderr: string[] } {
  const stdout: string[] = []
  const stderr: string[] = []
  return { stdout, stderr, out: (l) => { stdout.push(l) }, err: (l) => { stderr.push(l) } }
}

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

for (const dialect of testDialects()) {
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
      const db = await createTestDatabase(dialect)
      t.after(async () => { await db.drop() })
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
