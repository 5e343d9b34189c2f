import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createKnexStore, testDialects, type KnexStore } from '@helpdesk/store-knex'
import { adminToken, deployment, killServer, startServer, type ServerProcess } from './server-process.js'

/** Concurrent writers, and how long they write before the server is killed. */
const WRITERS = 8
const LOAD_MS = 1500
const KILLS = 2
/** Writes each round acknowledges at least before its kill (the assertions below want 20 tickets and 10 comments in all). */
const ROUND_WRITES = 24

interface Acknowledged {
  tickets: Map<number, string>
  comments: Map<number, number>
  /** Requests the kill cut off: their writes may or may not have committed. */
  inFlightAtKill: number
}

async function post (url: string, token: string, body: object): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await res.text()
  if (res.status !== 201) throw new Error(`${res.status} ${text}`)
  // Acknowledged: the whole 201 and its body reached the client.
  return JSON.parse(text).data
}

/**
 * Writers create tickets (each with a unique word in its title) and replies
 * on tickets already acknowledged, until the server stops answering; every
 * 201 that fully arrived is recorded.
 */
async function load (server: ServerProcess, token: string, category: number, customer: number, acknowledged: Acknowledged, round: number): Promise<() => Promise<void>> {
  let stopped = false
  let inFlight = 0
  const writer = async (w: number): Promise<void> => {
    for (let n = 0; !stopped; n++) {
      const ticketIds = [...acknowledged.tickets.keys()]
      inFlight++
      try {
        if (ticketIds.length === 0 || n % 3 !== 2) {
          // `z` ends the word: no marker is a prefix of another (the search matches last words as prefixes).
          const marker = `crashmark${round}w${w}n${n}z`
          const ticket = await post(`${server.url}/tickets`, token, { category, customer_id: customer, title: `Load ${marker}`, body: `<p>Written by writer ${w}.</p>` })
          acknowledged.tickets.set(ticket.id as number, marker)
        } else {
          const ticketId = ticketIds[(w * 7919 + n) % ticketIds.length]!
          const comment = await post(`${server.url}/tickets/${ticketId}/comments`, token, { body: `Reply ${n} from writer ${w}.`, type: 1, private: false })
          acknowledged.comments.set(comment.id as number, ticketId)
        }
      } catch {
        // The server is gone: this request was cut off.
        if (stopped) return
        stopped = true
        acknowledged.inFlightAtKill += inFlight
        return
      } finally {
        inFlight--
      }
    }
  }
  const writers = Array.from({ length: WRITERS }, async (_, w) => { await writer(w) })
  return async () => {
    await Promise.all(writers)
  }
}

function rowsOf<T> (result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}

/** The database's own consistency checks and the application's invariants, as lists of problems. */
async function consistencyProblems (knex: KnexStore['knex'], dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const problems: string[] = []
  const orphans: Array<[string, string]> = [
    ['comments without their ticket', 'select count(*) as n from comments where ticket_id not in (select id from tickets)'],
    ['attachments without their ticket', 'select count(*) as n from attachments where ticket_id is not null and ticket_id not in (select id from tickets)'],
    ['tickets without their owner', 'select count(*) as n from tickets where user_id not in (select id from users)'],
    ['tickets without their category', 'select count(*) as n from tickets where category_id not in (select id from categories)']
  ]
  if (dialect === 'sqlite') {
    const integrity = rowsOf<{ integrity_check: string }>(await knex.raw('pragma integrity_check'))
    if (integrity.map((r) => r.integrity_check).join() !== 'ok') problems.push(`integrity_check: ${JSON.stringify(integrity)}`)
    const foreignKeys = rowsOf<unknown>(await knex.raw('pragma foreign_key_check'))
    if (foreignKeys.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(foreignKeys)}`)
    orphans.push(
      ['tickets missing from the search index', 'select count(*) as n from tickets where id not in (select rowid from tickets_search)'],
      ['search entries of no ticket', 'select count(*) as n from tickets_search where rowid not in (select id from tickets)'],
      ['tickets missing from the public search index', 'select count(*) as n from tickets where id not in (select rowid from tickets_public_search)'],
      ['public search entries of no ticket', 'select count(*) as n from tickets_public_search where rowid not in (select id from tickets)']
    )
  } else {
    orphans.push(
      ['tickets missing from the search index', "select count(*) as n from tickets where search_document = ''::tsvector"],
      ['tickets missing from the public search index', "select count(*) as n from tickets where public_search_document = ''::tsvector"],
      ['invalid indexes', 'select count(*) as n from pg_index where not indisvalid']
    )
    // amcheck verifies every b-tree index against its table's structure, as pg_amcheck does.
    await knex.raw('create extension if not exists amcheck')
    const btrees = rowsOf<{ name: string }>(await knex.raw(
      "select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam join pg_namespace s on s.oid = c.relnamespace where a.amname = 'btree' and s.nspname = current_schema()"
    ))
    for (const { name } of btrees) {
      try {
        await knex.raw('select bt_index_check(?::regclass, true)', [name])
      } catch (error) {
        problems.push(`index ${name}: ${(error as Error).message}`)
      }
    }
  }
  for (const [what, sql] of orphans) {
    const [row] = rowsOf<{ n: number | string }>(await knex.raw(sql))
    if (Number(row?.n) !== 0) problems.push(`${what}: ${String(row?.n)}`)
  }
  return problems
}

/** Every ticket's reply count as the API reports it (`include=replies-count`), page by page. */
async function reportedReplyCounts (url: string, token: string): Promise<Map<number, number>> {
  const counts = new Map<number, number>()
  for (let page = 1; ; page++) {
    const res = await fetch(`${url}/tickets?include=replies-count&per_page=100&page=${page}&sort=id`, { headers: { authorization: `Bearer ${token}` } })
    const body = await res.json() as { data: Array<{ id: number, replies_count: number }>, meta: { last_page: number } }
    for (const ticket of body.data) counts.set(ticket.id, ticket.replies_count)
    if (page >= body.meta.last_page) return counts
  }
}

for (const dialect of testDialects()) {
  describe(`crash safety on ${dialect}`, () => {
    it('keeps every acknowledged write, in sync and intact, through SIGKILLs of the server under load', async (t) => {
      const db = await deployment(t, dialect)
      let server = await startServer(db.databaseUrl, db.storage)
      t.after(async () => { await killServer(server) })
      const token = await adminToken(server)
      const category = await post(`${server.url}/categories`, token, { name: 'Crash' })
      const customer = await post(`${server.url}/customers`, token, { first_name: 'Carla', last_name: 'Crash', email: 'carla@example.com', password: 'secret123', password_confirmation: 'secret123' })
      const acknowledged: Acknowledged = { tickets: new Map(), comments: new Map(), inFlightAtKill: 0 }

      for (let round = 1; round <= KILLS; round++) {
        const finished = await load(server, token, category.id, customer.id, acknowledged, round)
        // Kill after LOAD_MS and once this round has written its share, so a slow, busy machine still kills mid-load, not before it.
        const before = acknowledged.tickets.size + acknowledged.comments.size
        const started = Date.now()
        while (Date.now() - started < LOAD_MS || (acknowledged.tickets.size + acknowledged.comments.size - before < ROUND_WRITES && Date.now() - started < 30_000)) {
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        server.child.kill('SIGKILL')
        const { signal } = await server.exited
        assert.equal(signal, 'SIGKILL')
        await finished()
        server = await startServer(db.databaseUrl, db.storage)
      }

      // Read the database directly, beside the restarted server.
      const store = createKnexStore({ url: db.databaseUrl })
      t.after(async () => { await store.close() })
      const knex = store.knex
      const ticketRows = await knex('tickets').select('id', 'title') as Array<{ id: number, title: string }>
      const commentRows = await knex('comments').select('id', 'ticket_id', 'type') as Array<{ id: number, ticket_id: number, type: number }>
      const titles = new Map(ticketRows.map((row) => [row.id, row.title]))
      const commentTickets = new Map(commentRows.map((row) => [row.id, row.ticket_id]))

      const lostTickets = [...acknowledged.tickets].filter(([id, marker]) => titles.get(id) !== `Load ${marker}`)
      const lostComments = [...acknowledged.comments].filter(([id, ticketId]) => commentTickets.get(id) !== ticketId)
      const writes = acknowledged.tickets.size + acknowledged.comments.size
      const found = writes - lostTickets.length - lostComments.length
      t.diagnostic(`crash test on ${dialect}: ${KILLS} SIGKILLs under ${WRITERS} writers; ${writes} writes acknowledged ` +
        `(${acknowledged.tickets.size} tickets, ${acknowledged.comments.size} comments), ${found} found; ` +
        `${acknowledged.inFlightAtKill} requests in flight at the kills; ${ticketRows.length} tickets and ${commentRows.length} comments stored`)
      assert.ok(acknowledged.tickets.size >= 20 && acknowledged.comments.size >= 10, 'the load wrote something')
      assert.deepEqual(lostTickets, [], 'acknowledged tickets lost')
      assert.deepEqual(lostComments, [], 'acknowledged comments lost')

      assert.deepEqual(await consistencyProblems(knex, dialect), [])
      const replies = new Map<number, number>()
      for (const row of commentRows) if (row.type === 1) replies.set(row.ticket_id, (replies.get(row.ticket_id) ?? 0) + 1)
      const reported = await reportedReplyCounts(server.url, token)
      assert.equal(reported.size, ticketRows.length)
      const outOfSync = [...reported].filter(([id, count]) => count !== (replies.get(id) ?? 0))
      assert.deepEqual(outOfSync, [], 'tickets whose reply count disagrees with their comments')

      // The search finds acknowledged tickets by the word in their title, through the API, after the restarts.
      const sample = [...acknowledged.tickets].filter((_, i) => i % Math.ceil(acknowledged.tickets.size / 25) === 0)
      for (const [id, marker] of sample) {
        const res = await fetch(`${server.url}/tickets?filter[search]=${marker}`, { headers: { authorization: `Bearer ${token}` } })
        const body = await res.json() as { data: Array<{ id: number }> }
        assert.deepEqual(body.data.map((ticket) => ticket.id), [id], `search for ${marker}`)
      }
    })
  })
}
