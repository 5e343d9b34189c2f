/**
 * The benchmark's baseline: bare Fastify and the raw driver (better-sqlite3
 * or pg), prepared statements, no authentication, no validation, rows sent
 * as they come. It answers the benchmark's routes with the SQL a developer
 * would write by hand (page + COUNT(*), one query per include; the inbox's
 * cursor page without a count, plus one query for the unread markers), on the
 * same database as the help desk, so each scenario has a ceiling to compare with.
 *
 *   node --import tsx bench/baseline-server.ts --database URL --port 3001
 */
import { parseArgs } from 'node:util'
import Fastify from 'fastify'
import Database from 'better-sqlite3'
import pg from 'pg'

const { values: args } = parseArgs({ options: { database: { type: 'string' }, port: { type: 'string', default: '3001' } } })
const url = args.database ?? 'sqlite:./helpdesk.sqlite'

const TICKET = 'id, user_id, creator_id, category_id, assigned_agent_id, status, private, title, body, additional, agent_assigned_at, created_at, updated_at'
const USER = 'id, role, first_name, last_name, email, company, status, created_at, updated_at'
const COMMENT = 'id, ticket_id, user_id, body, preview, type, private, created_at, updated_at'
const PER_PAGE = 15

type Row = Record<string, unknown>

/** The few statements the routes need, per driver; `?` placeholders, `ids` bound as one JSON/array value. */
interface Driver {
  all: (sql: string, params: unknown[]) => Promise<Row[]>
  /** Runs the statements in one transaction. */
  write: (statements: Array<[string, unknown[]]>) => Promise<void>
  /** `column IN (the ids)` for a list bound as one parameter. */
  inIds: (column: string) => string
  /**
   * A full-text search of `word` (a prefix, as the help desk matches the last
   * word): the matches materialised first (what the issue found keeps either
   * planner on the index), then sorted; the count read from the index.
   */
  search: { matches: string, count: string, term: (word: string) => string }
}

function sqliteDriver (path: string): Driver {
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  const cache = new Map<string, Database.Statement>()
  const prepare = (sql: string): Database.Statement => {
    let statement = cache.get(sql)
    if (statement === undefined) { statement = db.prepare(sql); cache.set(sql, statement) }
    return statement
  }
  return {
    all: async (sql, params) => prepare(sql).all(...params) as Row[],
    write: async (statements) => { db.transaction(() => { for (const [sql, params] of statements) prepare(sql).run(...params) })() },
    inIds: (column) => `${column} in (select value from json_each(?))`,
    search: {
      matches: 'select rowid as id from tickets_search where tickets_search match ?',
      count: 'select count(*) as n from tickets_search where tickets_search match ?',
      term: (word) => `"${word}"*`
    }
  }
}

function postgresDriver (connectionString: string): Driver {
  pg.types.setTypeParser(1114, (v: string) => v.slice(0, 19))
  pg.types.setTypeParser(20, (v: string) => Number(v))
  const pool = new pg.Pool({ connectionString, max: 10 })
  const texts = new Map<string, { name: string, text: string }>()
  const prepared = (sql: string): { name: string, text: string } => {
    let found = texts.get(sql)
    if (found === undefined) {
      let n = 0
      found = { name: `b${texts.size}`, text: sql.replace(/\?/g, () => `$${++n}`) }
      texts.set(sql, found)
    }
    return found
  }
  return {
    all: async (sql, params) => (await pool.query({ ...prepared(sql), values: params })).rows as Row[],
    write: async (statements) => {
      const client = await pool.connect()
      try {
        await client.query('begin')
        for (const [sql, params] of statements) await client.query({ ...prepared(sql), values: params })
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw error
      } finally {
        client.release()
      }
    },
    inIds: (column) => `${column} = any(?::int[])`,
    search: {
      matches: "select id from tickets where search_document @@ to_tsquery('simple', ?)",
      count: "select count(*) as n from tickets where search_document @@ to_tsquery('simple', ?)",
      term: (word) => `${word}:*`
    }
  }
}

const driver = url.startsWith('sqlite:') ? sqliteDriver(url.slice('sqlite:'.length)) : postgresDriver(url)
const sqlite = url.startsWith('sqlite:')
const idList = (ids: unknown[]): unknown => sqlite ? JSON.stringify(ids) : ids

async function byIds (table: string, columns: string, ids: unknown[]): Promise<Map<unknown, Row>> {
  const unique = [...new Set(ids.filter((id) => id !== null))]
  if (unique.length === 0) return new Map()
  const rows = await driver.all(`select ${columns} from ${table} where ${driver.inIds('id')}`, [idList(unique)])
  return new Map(rows.map((r) => [r.id, r]))
}

/** user, category, agent and replies-count for a page, one query each. */
async function withIncludes (tickets: Row[]): Promise<Row[]> {
  if (tickets.length === 0) return tickets
  const users = await byIds('users', USER, tickets.map((t) => t.user_id))
  const categories = await byIds('categories', '*', tickets.map((t) => t.category_id))
  const agents = await byIds('users', USER, tickets.map((t) => t.assigned_agent_id))
  const counts = await driver.all(
    `select ticket_id, count(*) as n from comments where ${driver.inIds('ticket_id')} and type = 1 group by ticket_id`, [idList(tickets.map((t) => t.id))])
  const replies = new Map(counts.map((c) => [c.ticket_id, c.n]))
  return tickets.map((t) => ({
    ...t,
    user: users.get(t.user_id) ?? null,
    category: categories.get(t.category_id) ?? null,
    agent: agents.get(t.assigned_agent_id) ?? null,
    replies_count: replies.get(t.id) ?? 0
  }))
}

const agentRows = await driver.all('select id from users where email = ?', ['agent@example.com'])
const authorId = agentRows[0]?.id ?? null

const app = Fastify({ logger: false })

app.get<{ Params: { id: string }, Querystring: { include?: string } }>('/api/v1/tickets/:id', async (request, reply) => {
  const [ticket] = await driver.all(`select ${TICKET} from tickets where id = ?`, [Number(request.params.id)])
  if (ticket === undefined) return await reply.code(404).send({ message: 'Not found.' })
  if (request.query.include === undefined) return { data: ticket }
  const [included] = await withIncludes([ticket])
  const [last] = await driver.all(`select ${COMMENT} from comments where ticket_id = ? order by created_at desc, id desc limit 1`, [ticket.id])
  return { data: { ...included, last_reply: last ?? null } }
})

/** `filter[x]=1,2` as `column in (?, ?)` and its values (the inbox asks for two statuses). */
function inList (column: string, value: string): [string, number[]] {
  const values = value.split(',').map(Number)
  return [`${column} in (${values.map(() => '?').join(', ')})`, values]
}

/**
 * The console's inbox (cursor paging, no total): one page more than asked to
 * know whether there is a next, the list's includes, and the unread marker
 * (when the agent last read each ticket) read the same way, one query.
 */
async function inbox (query: Record<string, string | undefined>): Promise<unknown> {
  const perPage = Number(query.per_page ?? PER_PAGE)
  const conditions: string[] = []
  const params: unknown[] = []
  for (const [name, column] of [['filter[status]', 'status'], ['filter[categories]', 'category_id']] as const) {
    const value = query[name]
    if (value === undefined) continue
    const [condition, values] = inList(column, value)
    conditions.push(condition)
    params.push(...values)
  }
  const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : ''
  const rows = await driver.all(`select ${TICKET} from tickets ${where} order by updated_at desc, id desc limit ?`, [...params, perPage + 1])
  const page = rows.slice(0, perPage)
  const data = await withIncludes(page)
  const reads = page.length === 0
    ? []
    : await driver.all(`select ticket_id, read_at from ticket_reads where user_id = ? and ${driver.inIds('ticket_id')}`, [authorId, idList(page.map((t) => t.id))])
  const readAt = new Map(reads.map((r) => [r.ticket_id, r.read_at]))
  const last = page.at(-1)
  return {
    data: data.map((t) => ({ ...t, last_read_by_me: readAt.get(t.id) ?? null })),
    meta: { per_page: perPage, next_cursor: rows.length > perPage && last !== undefined ? `${String(last.updated_at)},${String(last.id)}` : null, prev_cursor: null }
  }
}

app.get<{ Querystring: Record<string, string | undefined> }>('/api/v1/tickets', async (request) => {
  const query = request.query
  if (query.cursor !== undefined) return await inbox(query)
  const page = Math.max(1, Number(query.page ?? 1))
  const order = query.sort === '-created_at' ? 'created_at desc, id desc' : 'id asc'
  const paging = [PER_PAGE, (page - 1) * PER_PAGE]
  let rows: Row[]
  let counted: Row | undefined
  const search = query['filter[search]']
  if (search !== undefined) {
    const term = driver.search.term(search)
    rows = await driver.all(`with matches as materialized (${driver.search.matches}) select ${TICKET} from tickets ` +
      `where id in (select id from matches) order by ${order} limit ? offset ?`, [term, ...paging])
    ;[counted] = await driver.all(driver.search.count, [term])
  } else {
    const status = query['filter[status]']
    const condition = status !== undefined ? 'where status = ?' : ''
    const params = status !== undefined ? [Number(status)] : []
    rows = await driver.all(`select ${TICKET} from tickets ${condition} order by ${order} limit ? offset ?`, [...params, ...paging])
    ;[counted] = await driver.all(`select count(*) as n from tickets ${condition}`, params)
  }
  const data = query.include !== undefined ? await withIncludes(rows) : rows
  return { data, meta: { current_page: page, per_page: PER_PAGE, total: Number(counted?.n ?? 0) } }
})

app.post<{ Params: { id: string }, Body: { body: string, type: number, private: boolean } }>('/api/v1/tickets/:id/comments', async (request, reply) => {
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ')
  const id = Number(request.params.id)
  const { body, type } = request.body
  await driver.write([
    ['insert into comments (ticket_id, user_id, body, preview, type, private, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
      [id, authorId, body, body.slice(0, 200), type, sqlite ? Number(request.body.private) : request.body.private, at, at]],
    ['update tickets set updated_at = ? where id = ?', [at, id]]
  ])
  return await reply.code(201).send({ data: { ticket_id: id, body, type, created_at: at } })
})

/** One page of a ticket's comments or history, oldest first, with the authors (one query for the page, one for the people, one count). */
async function ticketPage (table: 'comments' | 'ticket_history', columns: string, personColumn: string, id: number, query: Record<string, string | undefined>): Promise<unknown> {
  const perPage = Math.min(100, Number(query.per_page ?? PER_PAGE))
  const page = Math.max(1, Number(query.page ?? 1))
  const order = table === 'comments' ? 'created_at, id' : 'id'
  const rows = await driver.all(`select ${columns} from ${table} where ticket_id = ? order by ${order} limit ? offset ?`, [id, perPage, (page - 1) * perPage])
  const [counted] = await driver.all(`select count(*) as n from ${table} where ticket_id = ?`, [id])
  const people = query.include?.includes('user') === true ? await byIds('users', USER, rows.map((r) => r[personColumn])) : null
  const data = people === null ? rows : rows.map((r) => ({ ...r, user: people.get(r[personColumn]) ?? null }))
  return { data, meta: { current_page: page, per_page: perPage, total: Number(counted?.n ?? 0) } }
}

app.get<{ Params: { id: string }, Querystring: Record<string, string | undefined> }>('/api/v1/tickets/:id/comments', async (request) =>
  await ticketPage('comments', COMMENT, 'user_id', Number(request.params.id), request.query))

app.get<{ Params: { id: string }, Querystring: Record<string, string | undefined> }>('/api/v1/tickets/:id/history', async (request) =>
  await ticketPage('ticket_history', 'id, ticket_id, actor_kind, actor_id, actor_name, field, old_value, new_value, public, door, created_at', 'actor_id', Number(request.params.id), request.query))

/** A status change as a developer writes it by hand: the ticket row alone (no event, no history). */
app.patch<{ Params: { id: string }, Body: { status: number } }>('/api/v1/tickets/:id', async (request) => {
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ')
  const id = Number(request.params.id)
  await driver.write([['update tickets set status = ?, updated_at = ? where id = ?', [request.body.status, at, id]]])
  const [ticket] = await driver.all(`select ${TICKET} from tickets where id = ?`, [id])
  return { data: ticket }
})

const address = await app.listen({ host: '127.0.0.1', port: Number(args.port) })
process.stdout.write(`baseline listening on ${address}\n`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { void app.close().then(() => process.exit(0)) })
