import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { ImportJob } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { notificationsOf, notificationTypes } from './notification-fixtures.js'

const examples = fileURLToPath(new URL('../../../examples/import/', import.meta.url))
const sampleJson = join(examples, 'sample.json')
const sampleJsonl = join(examples, 'sample.jsonl')
const customersCsv = join(examples, 'customers.csv')

const tables = ['users', 'categories', 'agent_categories', 'tickets', 'comments'] as const

async function rowCounts (h: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of tables) {
    const row = await h.store.knex(table).count({ n: '*' }).first() as { n: number | string }
    counts[table] = Number(row.n)
  }
  return counts
}

function tempFile (name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'helpdesk-import-')), name)
  writeFileSync(path, content)
  return path
}

/** `count` customers as JSON Lines, line N being customer N. */
function customerLines (count: number, bad?: { line: number, record: Record<string, unknown> }): string {
  const lines: string[] = []
  for (let n = 1; n <= count; n++) {
    lines.push(JSON.stringify(n === bad?.line
      ? bad.record
      : { type: 'customer', id: `cu-${n}`, first_name: 'Customer', last_name: String(n), email: `customer${n}@example.com` }))
  }
  return lines.join('\n') + '\n'
}

function multipart (fileName: string, content: string): { payload: Buffer, headers: Record<string, string> } {
  const boundary = '----helpdesk-test-boundary'
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`
  )
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

async function waitForImport (h: TestApp, id: number, token: string): Promise<Record<string, any>> {
  for (let i = 0; i < 200; i++) {
    const res = await h.inject({ method: 'GET', url: `/api/v1/imports/${id}`, token })
    assert.equal(res.statusCode, 200, res.body)
    const job = res.json().data
    if (job.status === 'completed' || job.status === 'failed') return job
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the import did not finish')
}

eachDialect((dialect) => {
  describe(`imports on ${dialect}`, () => {
    it('imports the example document; a second run creates nothing', async (t) => {
      const h = await buildApp(t, dialect)
      const progress: Array<[number, number | null]> = []
      const first = await h.helpdesk.imports.importFile(sampleJson, { onProgress: (done, total) => { progress.push([done, total]) } })
      assert.equal(first.status, 'completed', first.message ?? '')
      assert.equal(first.total, 11)
      assert.equal(first.processed, 11)
      // 2 categories, 2 agents, 3 customers, 3 tickets, 5 nested comments + 1 standalone.
      assert.equal(first.created, 16)
      assert.deepEqual(progress.at(-1), [11, 11])
      assert.deepEqual(progress[0], [0, 11])
      const once = await rowCounts(h)
      assert.deepEqual(once, { users: 5, categories: 2, agent_categories: 1, tickets: 3, comments: 6 })

      const second = await h.helpdesk.imports.importFile(sampleJson)
      assert.equal(second.status, 'completed')
      assert.equal(second.created, 0)
      assert.deepEqual(await rowCounts(h), once)

      // The JSON Lines twin of the example maps onto the same records.
      const third = await h.helpdesk.imports.importFile(sampleJsonl)
      assert.equal(third.format, 'jsonl')
      assert.equal(third.created, 0)
      assert.deepEqual(await rowCounts(h), once)
    })

    it('keeps references, roles, times and sanitised bodies', async (t) => {
      const h = await buildApp(t, dialect)
      const job = await h.helpdesk.imports.importFile(sampleJsonl)
      assert.equal(job.status, 'completed', job.message ?? '')
      const users = h.store.users
      const grace = await users.findByEmail('grace@example.com')
      const alan = await users.findByEmail('alan@example.com')
      const ada = await users.findByEmail('ada@example.com')
      const mary = await users.findByEmail('mary@example.com')
      assert.equal(grace?.role, 1)
      assert.equal(alan?.role, 2)
      assert.equal(alan?.permissions.manage_customers, true)
      assert.equal(alan?.permissions.view_all_tickets, false)
      assert.equal(ada?.company, 'Analytical Engines')
      assert.equal(mary?.status, 2)
      const tickets = await h.store.knex('tickets').select('*').orderBy('id') as Array<Record<string, any>>
      const [invoice, engine, exportTicket] = tickets
      assert.equal(invoice?.user_id, ada?.id)
      assert.equal(invoice?.assigned_agent_id, grace?.id)
      assert.equal(invoice?.status, 3)
      assert.equal(String(invoice?.created_at).slice(0, 19).replace('T', ' '), '2024-03-02 09:15:00')
      assert.equal(engine?.assigned_agent_id, alan?.id)
      assert.match(String(engine?.additional), /PC-7731-ENGINE/)
      assert.equal(Boolean(exportTicket?.private), false)
      const comments = await h.store.knex('comments').select('*').orderBy('id') as Array<Record<string, any>>
      const byTicket = (id: number) => comments.filter((c) => c.ticket_id === id)
      assert.deepEqual(byTicket(invoice?.id).map((c) => [c.user_id, Number(c.type)]), [[grace?.id, 1], [grace?.id, 2], [ada?.id, 1]])
      const standalone = byTicket(engine?.id).at(-1)
      assert.equal(standalone?.user_id, (await users.findByEmail('charles@example.com'))?.id)
      assert.doesNotMatch(standalone?.body, /script/)
      assert.equal(byTicket(exportTicket?.id)[0]?.user_id, mary?.id, 'a comment without author is the owner\'s')
    })

    it('imports customers from CSV, linking an existing email instead of duplicating it', async (t) => {
      const h = await buildApp(t, dialect)
      await h.user('customer', { email: 'Ada@Example.com' })
      const job = await h.helpdesk.imports.importFile(customersCsv)
      assert.equal(job.status, 'completed', job.message ?? '')
      assert.equal(job.format, 'csv')
      assert.equal(job.total, 5)
      assert.equal(job.created, 4)
      const again = await h.helpdesk.imports.importFile(customersCsv)
      assert.equal(again.created, 0)
      assert.equal((await rowCounts(h)).users, 5)
      const hedy = await h.store.users.findByEmail('hedy@example.com')
      assert.equal(hedy?.company, 'Frequency Hopping "FH" Ltd')
      assert.equal(hedy?.status, 2)
      // The row without an id is known by its email: the sample document's ada maps onto the same user.
      const json = await h.helpdesk.imports.importFile(sampleJson)
      assert.equal(json.status, 'completed', json.message ?? '')
      assert.equal((await rowCounts(h)).users, 9)
    })

    it('a bad record on line 57 fails the import naming line 57, and its batch is not written', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const file = tempFile('customers.jsonl', customerLines(80, {
        line: 57, record: { type: 'customer', id: 'cu-57', first_name: 'Bad', last_name: 'Email', email: 'not-an-email' }
      }))
      const job = await h.helpdesk.imports.importFile(file, { batchSize: 20, actor: admin.user })
      assert.equal(job.status, 'failed')
      assert.match(job.message ?? '', /^Line 57: The email must be a valid email address\.$/)
      assert.equal(job.processed, 40)
      assert.equal(job.created, 40)
      assert.equal(job.failed, 17)
      const emails = (await h.store.knex('users').where('email', 'like', 'customer%').select('email')).map((r) => r.email as string)
      assert.equal(emails.length, 40, 'lines 41 to 56 were rolled back with their batch')
      assert.ok(!emails.includes('customer41@example.com'))

      const [notification] = await notificationsOf(h, admin.token)
      assert.equal(notification?.type, 'Import.ImportFailed')
      assert.deepEqual(notification?.data.import, { id: job.id, created: 40, failed: 17, message: job.message })
      assert.equal(notification?.author, null)

      // Fixed, the same file completes and creates only what is missing.
      const fixed = tempFile('customers.jsonl', customerLines(80))
      const rerun = await h.helpdesk.imports.importFile(fixed, { batchSize: 20, actor: admin.user })
      assert.equal(rerun.status, 'completed')
      assert.equal(rerun.created, 40)
      assert.equal((await notificationTypes(h, admin.token))[0], 'Import.ImportCompletedSuccessfully')
    })

    it('a reference to an unknown record rolls back its batch and names the record', async (t) => {
      const h = await buildApp(t, dialect)
      const lines = customerLines(56).split('\n').filter((l) => l !== '')
      lines.unshift(JSON.stringify({ type: 'category', id: 'cat-1', name: 'General' }))
      lines.splice(56, 0, JSON.stringify({ type: 'ticket', id: 't-1', customer: 'cu-nobody', category: 'cat-1', title: 'Hello', body: 'Hi' }))
      const file = tempFile('tickets.jsonl', lines.join('\n'))
      const job = await h.helpdesk.imports.importFile(file, { batchSize: 20 })
      assert.equal(job.status, 'failed')
      assert.match(job.message ?? '', /^Line 57: unknown customer "cu-nobody"/)
      assert.equal(job.processed, 40)
      assert.equal((await rowCounts(h)).users, 39)
      assert.equal((await rowCounts(h)).tickets, 0)
    })

    it('names broken JSON, unknown types and nested records by position', async (t) => {
      const h = await buildApp(t, dialect)
      const broken = await h.helpdesk.imports.importFile(tempFile('a.jsonl', '{"type":"category","id":"c","name":"A"}\n{"type": "customer",\n'))
      assert.match(broken.message ?? '', /^Line 2: not valid JSON/)
      const unknown = await h.helpdesk.imports.importFile(tempFile('b.jsonl', '{"type":"planet","id":"p"}\n'))
      assert.match(unknown.message ?? '', /^Line 1: unknown record type "planet"/)
      const nested = await h.helpdesk.imports.importFile(tempFile('c.json', JSON.stringify({
        categories: [{ id: 'c', name: 'A' }],
        customers: [{ id: 'u', first_name: 'A', last_name: 'B', email: 'ab@example.com' }],
        tickets: [{ id: 't', customer: 'u', category: 'c', title: 'T', body: 'B', comments: [{ body: 'ok' }, { body: '   ' }] }]
      })))
      assert.match(nested.message ?? '', /^tickets\[0\]\.comments\[1\]: The body field is required\.$/)
      const csv = await h.helpdesk.imports.importFile(tempFile('d.csv', 'first_name,last_name,email\nA,B,ab@example.com\nC,D\n'))
      assert.match(csv.message ?? '', /^Line 3: not valid CSV/)
      assert.equal((await rowCounts(h)).users, 0)
      await assert.rejects(h.helpdesk.imports.importFile(join(tmpdir(), 'no-such-dir', 'x.jsonl')), /ENOENT/)
      const last = await h.store.knex('imports').orderBy('id', 'desc').first()
      assert.equal(last.status, 'failed', 'a file that cannot be read leaves no job running')
    })

    it('reads a stream, reporting the total once known', async (t) => {
      const h = await buildApp(t, dialect)
      const seen: Array<number | null> = []
      const job = await h.helpdesk.imports.importFile(Readable.from([customerLines(3)]), {
        format: 'jsonl', onProgress: (_done, total) => { seen.push(total) }
      })
      assert.equal(job.status, 'completed')
      assert.equal(job.total, 3)
      assert.deepEqual(seen, [null, null])
    })

    it('POST /imports runs in the background and notifies the administrator who started it', async (t) => {
      const h = await buildApp(t, dialect, { workers: true })
      const admin = await h.user('admin')
      const agent = await h.user('agent')
      const upload = multipart('sample.jsonl', readFileSync(sampleJsonl, 'utf8'))
      const started = expectStatus(await h.inject({ method: 'POST', url: '/api/v1/imports', token: admin.token, ...upload }), 202).data
      assert.ok(['queued', 'running', 'completed'].includes(started.status))
      assert.deepEqual(Object.keys(started).sort(), ['created', 'created_at', 'failed', 'id', 'message', 'processed', 'status', 'total', 'updated_at'])
      const done = await waitForImport(h, started.id, admin.token)
      assert.equal(done.status, 'completed', done.message)
      assert.equal(done.created, 16)
      assert.equal(done.total, 11)
      const [notification] = await notificationsOf(h, admin.token)
      assert.equal(notification?.type, 'Import.ImportCompletedSuccessfully')
      assert.deepEqual(notification?.data.import, { id: started.id, created: 16, failed: 0, message: null })
      assert.equal((await h.store.knex('imports').where('id', started.id).first()).source, null, 'the stored file is dropped')

      expectError(await h.inject({ method: 'POST', url: '/api/v1/imports', token: agent.token, ...upload }), 403)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/imports/${started.id}`, token: agent.token }), 404)
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/imports', token: admin.token, payload: { file: 'x' } }), 'file')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/imports', token: admin.token, ...multipart('empty.csv', '') }), 'file')
      expectError(await h.inject({ method: 'GET', url: '/api/v1/imports/999999', token: admin.token }), 404)
      const tooLarge = multipart('big.jsonl', 'x'.repeat(30 * 2 ** 20 + 1))
      expectError(await h.inject({ method: 'POST', url: '/api/v1/imports', token: admin.token, ...tooLarge }), 413)
    })

    it('jobs live in the database: another instance takes queued and abandoned jobs, each once', async (t) => {
      // This app runs no job runner: the two `runPending` calls below are the instances.
      const h = await buildApp(t, dialect, { workers: false })
      const admin = await h.user('admin')
      // Files with no record in common, so the two jobs may run side by side.
      const content = 'first_name,last_name,email\nEmmy,Noether,emmy@example.com\nHedy,Lamarr,hedy@example.com\n'
      const { store } = h
      // Queued by "another instance" that never ran them.
      const queued = await h.helpdesk.imports.enqueue(admin.user, { fileName: 'customers.csv', content })
      const abandoned = await h.helpdesk.imports.enqueue(admin.user, { fileName: 'sample.jsonl', content: readFileSync(sampleJsonl, 'utf8') })
      await store.imports.update(abandoned.id, { status: 'running' })
      await h.store.knex('imports').where('id', abandoned.id).update({ updated_at: '2000-01-01 00:00:00' })
      const busy = await h.helpdesk.imports.enqueue(admin.user, { fileName: 'x.csv', content })
      await store.imports.update(busy.id, { status: 'running' })

      const ran = await Promise.all([h.helpdesk.imports.runPending(), h.helpdesk.imports.runPending()])
      assert.equal(ran[0] + ran[1], 2, 'each job once; the live running job is left alone')
      const finished = await Promise.all([queued.id, abandoned.id, busy.id].map(async (id) => await store.imports.findById(id))) as ImportJob[]
      assert.deepEqual(finished.map((j) => j.status), ['completed', 'completed', 'running'])
      assert.deepEqual([finished[0]!.created, finished[1]!.created], [2, 16])
      assert.equal((await notificationTypes(h, admin.token)).length, 2)
    })
  })
})

