import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { parseListQuery, ticketList } from '@helpdesk/core'
import { PointReads } from '../src/repositories/point-reads.js'
import { testDialects } from '../src/testing.js'
import { queriesOf } from './test-store.js'
import { deskOn, ticket } from './use-case-fixtures.js'

interface Row { id: number, value: string }

/** A PointReads over an in-memory table whose loads are recorded (and can be made to fail). */
function recorded (table: Map<number, string>): { reads: PointReads<Row>, loads: number[][], fail: { next: boolean } } {
  const loads: number[][] = []
  const fail = { next: false }
  const reads = new PointReads<Row>(async (ids) => {
    loads.push(ids)
    if (fail.next) { fail.next = false; throw new Error('connection lost') }
    // What the table holds when the load starts (a statement's snapshot), answered a little later.
    const rows = ids.flatMap((id) => table.has(id) ? [{ id, value: table.get(id) ?? '' }] : [])
    await new Promise((resolve) => setTimeout(resolve, 5))
    return rows
  }, (row) => row.id)
  return { reads, loads, fail }
}

describe('point reads', () => {
  it('answers the callers of one turn with one load, each its own row', async () => {
    const { reads, loads } = recorded(new Map([[1, 'a'], [2, 'b'], [3, 'c']]))
    const answers = await Promise.all([reads.get(2), reads.get(1), reads.get(2), reads.get(9)])
    assert.deepEqual(answers.map((row) => row?.value ?? null), ['b', 'a', 'b', null])
    assert.deepEqual(loads, [[2, 1, 9]])
  })

  it('starts a load only after its callers asked: a caller arriving once it started waits for the next, and sees what changed', async () => {
    const table = new Map([[1, 'before']])
    const { reads, loads } = recorded(table)
    const first = reads.get(1)
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(loads.length, 1, 'the first load has started')
    table.set(1, 'after')
    const second = reads.get(1)
    assert.equal((await first)?.value, 'before')
    assert.equal((await second)?.value, 'after')
    assert.deepEqual(loads, [[1], [1]])
  })

  it('answers ids no integer column holds without a load, so they never fail a batch', async () => {
    const { reads, loads } = recorded(new Map([[1, 'a']]))
    const answers = await Promise.all([reads.get(0), reads.get(-4), reads.get(2 ** 31), reads.get(1.5), reads.get(Number.NaN), reads.get(1)])
    assert.deepEqual(answers.map((row) => row?.value ?? null), [null, null, null, null, null, 'a'])
    assert.deepEqual(loads, [[1]])
  })

  it('a failed load fails its own callers only', async () => {
    const { reads, fail } = recorded(new Map([[1, 'a']]))
    fail.next = true
    const failed = [reads.get(1), reads.get(2)]
    await assert.rejects(failed[0] as Promise<unknown>, /connection lost/)
    await assert.rejects(failed[1] as Promise<unknown>, /connection lost/)
    assert.equal((await reads.get(1))?.value, 'a')
  })

  it('splits a turn of more than 500 ids into several loads', async () => {
    const table = new Map(Array.from({ length: 1200 }, (_, i) => [i + 1, `t${i + 1}`] as const))
    const { reads, loads } = recorded(table)
    const answers = await Promise.all([...table.keys()].map(async (id) => await reads.get(id)))
    assert.ok(answers.every((row, i) => row?.value === `t${i + 1}`))
    assert.deepEqual(loads.map((ids) => ids.length), [500, 500, 200])
  })
})

for (const dialect of testDialects()) {
  describe(`ticket views gathered per turn (${dialect})`, () => {
    it(dialect === 'postgres' ? 'reads the tickets of one turn\'s views with one statement' : 'reads each ticket with its own statement', async (t) => {
      const d = await deskOn(t, dialect)
      const tickets = await Promise.all([1, 2, 3].map(async () => await ticket(d, d.alice, { category: d.billing })))
      const hidden = await ticket(d, d.bob, { category: d.billing, private: true })
      const view = parseListQuery(ticketList, {})
      const seen = await queriesOf(d.store.knex, async () => {
        const [views, refused] = await Promise.all([
          Promise.all(tickets.map(async ({ id }) => await d.helpdesk.tickets.view(d.alice, id, view))),
          d.helpdesk.tickets.view(d.alice, hidden.id, view).then(() => null, (error: unknown) => error)
        ])
        assert.deepEqual(views.map((v) => v.id), tickets.map((v) => v.id))
        assert.equal((refused as { statusCode?: number } | null)?.statusCode, 404, 'the batch keeps each view\'s visibility check')
      })
      const ticketReads = seen.filter((query) => /^select .* from "?tickets"? where/i.test(query.sql))
      assert.equal(ticketReads.length, dialect === 'postgres' ? 1 : 4)
    })

    it('a view inside a transaction reads its own uncommitted change', async (t) => {
      const d = await deskOn(t, dialect)
      const { id } = await ticket(d, d.alice, { category: d.billing })
      await d.store.transaction(async (tx) => {
        await tx.tickets.update(id, { title: 'Changed in the transaction' })
        assert.equal((await tx.tickets.findById(id))?.title, 'Changed in the transaction')
      })
      assert.equal((await d.store.tickets.findById(id))?.title, 'Changed in the transaction')
    })
  })
}
