import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createKnexStore, testDialects } from '@helpdesk/store-knex'
import { run } from '../src/program.js'
import { captureIo, testDatabase } from './in-process.js'


for (const dialect of testDialects()) {
  describe(`helpdesk jobs and webhooks commands on ${dialect}`, () => {
    it('lists failed jobs and retries one; creates, lists, rotates and deletes webhooks', async (t) => {
      const db = await testDatabase(t, dialect)
      assert.equal(await run(['migrate', '--database', db.url], captureIo()), 0)
      const store = createKnexStore({ url: db.url })
      try {
        const [id] = await store.jobs.enqueue([{ type: 'report.build', maxAttempts: 1 }])
        const [claimed] = await store.jobs.claim({ types: ['report.build'], limit: 1, leaseMs: 1000, workerId: 'test' })
        await store.jobs.fail(claimed!.id, 'the report service said no', null)

        const listed = captureIo()
        assert.equal(await run(['jobs', '--database', db.url, '--json'], listed), 0)
        const jobs = JSON.parse(listed.stdout[0]!) as Array<{ id: number, status: string, last_error: string }>
        assert.deepEqual(jobs.map((j) => [j.id, j.status, j.last_error]), [[id, 'failed', 'the report service said no']])
        const text = captureIo()
        assert.equal(await run(['jobs', '--database', db.url], text), 0)
        assert.match(text.stdout[0]!, new RegExp(`^${id}\\treport\\.build\\tfailed\\tattempts 1/1`))

        assert.equal(await run(['jobs:retry', String(id), '--database', db.url], captureIo()), 0)
        assert.equal((await store.jobs.findById(id!))?.status, 'pending')
        const unknown = captureIo()
        assert.equal(await run(['jobs:retry', '999999', '--database', db.url], unknown), 1)
        assert.deepEqual(unknown.stderr, ['error: no failed or pending job 999999'])

        const scheme = captureIo()
        assert.equal(await run(['webhooks:create', '--url', 'ftp://files.example.com/hook', '--database', db.url], scheme), 1)
        assert.match(scheme.stderr[0]!, /^error: url: The url's scheme "ftp" is not allowed: use http or https\.$/)
        const credentials = captureIo()
        assert.equal(await run(['webhooks:create', '--url', 'https://me:hunter2@example.com/hook', '--database', db.url], credentials), 1)
        assert.match(credentials.stderr[0]!, /^error: url: The url must not contain credentials/)
        assert.doesNotMatch(credentials.stderr[0]!, /hunter2/)
        const refused = captureIo()
        assert.equal(await run(['webhooks:create', '--url', 'http://127.0.0.1:9/hook', '--database', db.url], refused), 1)
        assert.match(refused.stderr[0]!, /^error: url: 127\.0\.0\.1 is not a public address/)
        const created = captureIo()
        assert.equal(await run(['webhooks:create', '--url', 'http://127.0.0.1:9/hook', '--allow-private-targets', '--events', 'Tickets.TicketCreated', '--json', '--database', db.url], created), 0)
        const endpoint = JSON.parse(created.stdout[0]!) as { id: number, secret: string, events: string[] }
        assert.match(endpoint.secret, /^whsec_/)
        assert.deepEqual(endpoint.events, ['Tickets.TicketCreated'])
        const list = captureIo()
        assert.equal(await run(['webhooks:list', '--json', '--database', db.url], list), 0)
        assert.equal(list.stdout[0]!.includes(endpoint.secret), false, 'no secret in the list')
        const rotated = captureIo()
        assert.equal(await run(['webhooks:rotate', String(endpoint.id), '--overlap', '60', '--json', '--database', db.url], rotated), 0)
        assert.notEqual(JSON.parse(rotated.stdout[0]!).secret, endpoint.secret)
        assert.equal(await run(['webhooks:delete', String(endpoint.id), '--database', db.url], captureIo()), 0)
        assert.deepEqual(await store.webhooks.list(), [])
      } finally {
        await store.close()
      }
    })

    it('lists jobs newest first through the jobs list, past one page when --limit asks for more, by status and type', async (t) => {
      const db = await testDatabase(t, dialect)
      assert.equal(await run(['migrate', '--database', db.url], captureIo()), 0)
      const store = createKnexStore({ url: db.url })
      try {
        const ids = await store.jobs.enqueue(Array.from({ length: 130 }, (_, i) => ({ type: i % 2 === 0 ? 'report.even' : 'report.odd' })))
        const listed = async (...args: string[]): Promise<number[]> => {
          const io = captureIo()
          assert.equal(await run(['jobs', '--database', db.url, '--json', ...args], io), 0, io.stderr.join('\n'))
          return (JSON.parse(io.stdout[0]!) as Array<{ id: number }>).map((job) => job.id)
        }
        assert.deepEqual(await listed(), ids.slice(-50).reverse(), 'the newest 50 by default')
        assert.deepEqual(await listed('--limit', '120'), ids.slice(-120).reverse())
        assert.deepEqual(await listed('--limit', '500', '--type', 'report.odd'), ids.filter((_, i) => i % 2 === 1).reverse())
        assert.deepEqual(await listed('--status', 'done'), [])
        const bad = captureIo()
        assert.equal(await run(['jobs', '--database', db.url, '--limit', '0'], bad), 1)
        assert.deepEqual(bad.stderr, ['error: the limit must be a positive whole number, got "0"'])
      } finally {
        await store.close()
      }
    })
  })
}
