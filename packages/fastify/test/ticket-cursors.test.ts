import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { TicketImport } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, postComment, type Desk } from './ticket-fixtures.js'

const TIMES = ['2024-01-01 10:00:00', '2024-03-05 08:30:00', '2024-03-05 08:30:00', '2025-07-09 23:59:59']

/** 41 tickets with few distinct times, titles, statuses and privacy values: ties everywhere for the id to break. */
async function manyTickets (h: TestApp, d: Desk): Promise<number[]> {
  return await h.helpdesk.tickets.importMany(Array.from({ length: 41 }, (_, i): TicketImport => ({
    user_id: i % 2 === 0 ? d.alice.user.id : d.bob.user.id,
    category_id: i % 3 === 0 ? d.billing : d.sales,
    title: ['Printer', 'billing', 'Zebra', 'apple'][i % 4] as string,
    body: 'Text',
    status: (1 + (i % 3)) as 1 | 2 | 3,
    private: i % 5 !== 0,
    created_at: TIMES[i % 4],
    updated_at: TIMES[(i + 1) % 4]
  })))
}

const get = async (h: TestApp, token: string, url: string) => expectStatus(await h.inject({ method: 'GET', url, token }), 200)
const pathOf = (url: string): string => { const u = new URL(url); return `${u.pathname}${u.search}` }
const ids = (body: { data: Array<{ id: number }> }): number[] => body.data.map((t) => t.id)

/** Follows `links.next` (or `prev`) from `url` to the end; returns the ids in the order met, checking each page's shape. */
async function walk (h: TestApp, token: string, url: string, direction: 'next' | 'prev' = 'next'): Promise<{ ids: number[], pages: number }> {
  const seen: number[] = []
  let pages = 0
  let next: string | null = url
  while (next !== null) {
    const body = await get(h, token, next)
    pages++
    assert.deepEqual(Object.keys(body.meta).sort(), ['next_cursor', 'path', 'per_page', 'prev_cursor'])
    assert.equal(body.links.last, null)
    assert.match(body.links.first, /[?&]cursor=(&|$)/)
    if (body.links.next !== null) assert.match(body.links.next, new RegExp(`[?&]cursor=${encodeURIComponent(body.meta.next_cursor as string)}`))
    seen.push(...(direction === 'next' ? ids(body) : ids(body).reverse()))
    next = body.links[direction] === null ? null : pathOf(body.links[direction] as string)
    assert.ok(pages < 100, 'the walk ends')
  }
  return { ids: seen, pages }
}

eachDialect((dialect) => {
  describe(`cursor paging and filter[updated_since] on ${dialect}`, () => {
    it('walks every ticket exactly once, forward and back, in the order of every sort', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await manyTickets(h, d)
      for (const sort of ['id', '-id', '-created_at', 'updated_at', 'title', '-status', 'status,-created_at', 'private,-title', '-updated_at,title']) {
        const expected = ids(await get(h, d.admin.token, `/api/v1/tickets?per_page=100&sort=${sort}`))
        assert.equal(expected.length, 41)
        const forward = await walk(h, d.admin.token, `/api/v1/tickets?per_page=7&sort=${sort}&cursor=`)
        assert.deepEqual(forward.ids, expected, `forward, sort=${sort}`)
        assert.equal(forward.pages, 6)
        // From the last page back to the first.
        let last = await get(h, d.admin.token, `/api/v1/tickets?per_page=7&sort=${sort}&cursor=`)
        while (last.links.next !== null) last = await get(h, d.admin.token, pathOf(last.links.next))
        const backward = await walk(h, d.admin.token, pathOf(last.links.prev), 'prev')
        assert.deepEqual([...ids(last).reverse(), ...backward.ids], [...expected].reverse(), `backward, sort=${sort}`)
      }
    })

    it('keeps filters, visibility and includes, takes page[cursor] too, ignores page, and refuses a cursor it did not issue with a 400', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await manyTickets(h, d)
      const expected = ids(await get(h, d.alice.token, '/api/v1/tickets?per_page=100&filter[status]=1,2&sort=-created_at'))
      const walked = await walk(h, d.alice.token, '/api/v1/tickets?per_page=4&filter[status]=1,2&sort=-created_at&include=user,replies-count&page=3&cursor=')
      assert.deepEqual(walked.ids, expected)
      const first = await get(h, d.alice.token, '/api/v1/tickets?per_page=4&include=user&page[cursor]=')
      assert.equal(first.data[0].user.id !== undefined, true)
      const second = await get(h, d.alice.token, `/api/v1/tickets?per_page=4&include=user&page[cursor]=${encodeURIComponent(first.meta.next_cursor as string)}`)
      assert.deepEqual(ids(second), expected.length > 0 ? ids(await get(h, d.alice.token, '/api/v1/tickets?per_page=4&page=2')) : [])
      expectError(await h.inject({ method: 'GET', url: '/api/v1/tickets?cursor=not-a-cursor', token: d.alice.token }), 400)
      expectError(await h.inject({ method: 'GET', url: `/api/v1/tickets?sort=title&cursor=${encodeURIComponent(first.meta.next_cursor as string)}`, token: d.alice.token }), 400)
      const forged = Buffer.from(JSON.stringify(['id', [{ x: 1 }, 2], 0])).toString('base64url')
      expectError(await h.inject({ method: 'GET', url: `/api/v1/tickets?cursor=${forged}`, token: d.alice.token }), 400)
    })

    it('lists a filter of several values the same whether the sort\'s index or the filter drives the page (the inbox\'s status=1,2)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      await manyTickets(h, d)
      const statements: string[] = []
      h.store.knex.on('query', (q: { sql: string }) => { statements.push(q.sql) })
      // Small pages of a dense filter are read along the sort's index (SQLite is told so: `+column`); deep or large ones through the filter.
      const pageQuery = (): string => statements.find((sql) => /order by/i.test(sql) && /from .tickets./i.test(sql)) ?? ''
      for (const person of [d.admin, d.agent, d.alice]) {
        for (const query of ['filter[status]=1,2&sort=-updated_at', `filter[status]=1,3&filter[categories]=${d.billing},${d.sales}&sort=title`, 'filter[status]=2,3&sort=-created_at']) {
          statements.length = 0
          const expected = ids(await get(h, person.token, `/api/v1/tickets?per_page=100&${query}`))
          if (dialect === 'sqlite') assert.doesNotMatch(pageQuery(), /\+`tickets`\.`status`/, 'a page of 100 of these is sorted')
          if (person === d.admin) assert.ok(expected.length > 6, query)
          const paged: number[] = []
          for (let page = 1; paged.length < expected.length; page++) {
            statements.length = 0
            const body = await get(h, person.token, `/api/v1/tickets?per_page=3&page=${page}&${query}`)
            if (dialect === 'sqlite' && page === 1 && person !== d.alice) assert.match(pageQuery(), /\+`tickets`\.`status`/, 'the first page of 3 is read along the sort')
            assert.equal(body.meta.total, expected.length)
            assert.ok(body.data.length > 0)
            paged.push(...ids(body))
          }
          assert.deepEqual(paged, expected, `${person.user.email} ${query}, pages`)
          assert.deepEqual((await walk(h, person.token, `/api/v1/tickets?per_page=3&${query}&cursor=`)).ids, expected, `${person.user.email} ${query}, cursor`)
        }
      }
    })

    it('pages other lists by cursor too', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      for (let i = 0; i < 12; i++) await h.user('customer')
      const expected = ids(await get(h, d.admin.token, '/api/v1/customers?per_page=100'))
      const walked = await walk(h, d.admin.token, '/api/v1/customers?per_page=5&include=tickets-count&cursor=')
      assert.deepEqual(walked.ids, expected)
    })

    it('lists tickets changed at or after filter[updated_since], replies included, for incremental export', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const all = await manyTickets(h, d)
      const since = async (value: string, extra = ''): Promise<number[]> => {
        const body = await get(h, d.admin.token, `/api/v1/tickets?per_page=100&sort=updated_at${extra}&filter[updated_since]=${encodeURIComponent(value)}`)
        assert.equal(body.meta.total, body.data.length, 'counted exactly below the limit')
        return ids(body).sort((a, b) => a - b)
      }
      const updatedAt = (i: number): string => TIMES[(i + 1) % 4] as string
      const from = (time: string): number[] => all.filter((_, i) => updatedAt(i) >= time).sort((a, b) => a - b)
      assert.deepEqual(await since('2024-03-05 08:30:00'), from('2024-03-05 08:30:00'))
      assert.deepEqual(await since('2024-03-05T08:30:00Z'), from('2024-03-05 08:30:00'))
      assert.deepEqual(await since('2024-03-05T10:30:00+02:00'), from('2024-03-05 08:30:00'))
      assert.deepEqual(await since('2024-03-05'), from('2024-03-05 00:00:00'))
      assert.deepEqual(await since('2030-01-01 00:00:00'), [])
      assert.deepEqual(await since('2024-03-05 08:30:00', `&filter[categories]=${d.billing}`),
        from('2024-03-05 08:30:00').filter((id) => (all.indexOf(id) % 3) === 0))
      for (const bad of ['yesterday', '2024-13-01', '2024-02-30 10:00:00', '2024-01-01 25:00:00']) {
        expectValidation(await h.inject({ method: 'GET', url: `/api/v1/tickets?filter[updated_since]=${encodeURIComponent(bad)}`, token: d.admin.token }), 'filter.updated_since')
      }
      // A reply moves the ticket into the next export; walking by cursor sees each changed ticket once.
      const old = all.find((_, i) => updatedAt(i) === '2024-01-01 10:00:00') as number
      assert.ok(!(await since('2025-01-01 00:00:00')).includes(old))
      await postComment(h, d.agent.token, old)
      assert.ok((await since('2025-01-01 00:00:00')).includes(old))
      const exported = await walk(h, d.admin.token, `/api/v1/tickets?per_page=3&sort=updated_at&filter[updated_since]=2025-01-01&cursor=`)
      assert.deepEqual([...exported.ids].sort((a, b) => a - b), await since('2025-01-01 00:00:00'))
    })
  })
})
