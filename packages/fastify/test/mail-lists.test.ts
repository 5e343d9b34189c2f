import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eachDialect } from './helpers.js'
import { expectStatus } from './http-assertions.js'
import { mailDesk, SUPPORT } from './mail-fixtures.js'

// The administrators' mail records are lists like every other (CONTRACT §4, §5): the `mailList`
// declaration, `filter[...]`, pages or a cursor, and `links`/`meta`.
eachDialect((dialect) => {
  describe(`mail lists on ${dialect}`, () => {
    it('pages received mail newest first with links and meta; filters by status (also as `status`) and ticket; cursor pages', async (t) => {
      const d = await mailDesk(t, dialect)
      const get = async (url: string, status = 200): Promise<any> => expectStatus(await d.h.inject({ method: 'GET', url: `/api/v1${url}`, token: d.admin.token }), status)
      const created: number[] = []
      for (let i = 0; i < 17; i++) created.push((await d.post({ from: `sender${i}@customers.test`, to: SUPPORT, subject: `Mail ${i}`, text: 'Hello.' })).id!)
      const ignored = (await d.post({ from: 'mailer-daemon@customers.test', to: SUPPORT, subject: 'Undelivered Mail Returned to Sender', text: 'Bounce.', headers: { 'Auto-Submitted': 'auto-replied' } })).id!

      const first = await get('/mail/inbound')
      assert.deepEqual(first.data.map((m: { id: number }) => m.id), [ignored, ...created.slice(-14).reverse()])
      assert.deepEqual(first.meta, { current_page: 1, from: 1, last_page: 2, path: 'http://localhost/api/v1/mail/inbound', per_page: 15, to: 15, total: 18 })
      assert.equal(first.links.next, 'http://localhost/api/v1/mail/inbound?page=2')
      const second = await get('/mail/inbound?page=2&filter[status]=processed,ignored')
      assert.deepEqual(second.data.map((m: { id: number }) => m.id), created.slice(0, 3).reverse())
      assert.equal(second.links.prev, 'http://localhost/api/v1/mail/inbound?page=1&filter%5Bstatus%5D=processed%2Cignored')

      const processed = await get('/mail/inbound?filter[status]=processed&per_page=100')
      assert.equal(processed.meta.total, 17)
      assert.deepEqual(await get('/mail/inbound?status=processed&per_page=100').then((r) => r.data), processed.data, '`status` is the older spelling of the filter')
      assert.deepEqual((await get('/mail/inbound?filter[status]=ignored')).data.map((m: { id: number }) => m.id), [ignored])
      const ticketId = processed.data[0].ticket_id as number
      assert.deepEqual((await get(`/mail/inbound?filter[ticket]=${ticketId}`)).data.map((m: { id: number }) => m.id), [processed.data[0].id])
      const sent = await get('/mail/messages?per_page=100')
      assert.ok(sent.meta.total > 0 && sent.data.every((m: { direction: string }) => m.direction === 'out'), 'sent mail is the other list')

      const bad = await get('/mail/inbound?filter[status]=lost', 422)
      assert.deepEqual(bad.errors, { 'filter.status': ['The status filter has an invalid value "lost".'] })
      assert.match((await get('/mail/inbound?filter[sender]=x', 400)).message, /Unknown filter "sender"/)
      assert.match((await get('/mail/inbound?sort=subject', 400)).message, /Unknown sort "subject"/)
      await get('/mail/inbound?per_page=101', 422)

      const byCursor = await get('/mail/inbound?cursor=&per_page=10')
      assert.equal(byCursor.data.length, 10)
      assert.equal(byCursor.meta.per_page, 10)
      const rest = await get(byCursor.links.next.replace('http://localhost/api/v1', ''))
      assert.deepEqual(rest.data.map((m: { id: number }) => m.id), created.slice(0, 8).reverse())
      assert.equal(rest.links.next, null)
    })

    it('answers administrators only', async (t) => {
      const d = await mailDesk(t, dialect)
      expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/inbound', token: d.agent.token }), 403)
      expectStatus(await d.h.inject({ method: 'GET', url: '/api/v1/mail/messages' }), 401)
    })
  })
})
