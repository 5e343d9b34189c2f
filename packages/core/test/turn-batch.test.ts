import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { TurnBatch } from '../src/turn-batch.js'

/** A batch runner whose runs resolve when the test says so; records what each run got. */
function controlled (max?: number): { batch: TurnBatch<number, string>, runs: number[][], finish: Array<(error?: Error) => void> } {
  const runs: number[][] = []
  const finish: Array<(error?: Error) => void> = []
  const batch = new TurnBatch<number, string>(async (items) => {
    runs.push([...items])
    await new Promise<void>((resolve, reject) => { finish.push((error) => { if (error === undefined) resolve(); else reject(error) }) })
    return items.map((n) => `#${n}`)
  }, max)
  return { batch, runs, finish }
}

const turn = async (): Promise<void> => { await new Promise((resolve) => setImmediate(resolve)) }

describe('TurnBatch', () => {
  it('runs the calls of one turn together, each getting its own result', async () => {
    const { batch, runs, finish } = controlled()
    const results = [batch.add(1), batch.add(2), batch.add(3)]
    assert.deepEqual(runs, [], 'nothing runs before the turn ends')
    await turn()
    assert.deepEqual(runs, [[1, 2, 3]])
    finish[0]!()
    assert.deepEqual(await Promise.all(results), ['#1', '#2', '#3'])
  })

  it('gathers the calls made while a batch runs into the next one, started when it ends', async () => {
    const { batch, runs, finish } = controlled()
    const first = batch.add(1)
    await turn()
    const later = [batch.add(2), batch.add(3)]
    await turn()
    assert.deepEqual(runs, [[1]], 'one batch at a time')
    finish[0]!()
    assert.equal(await first, '#1')
    await turn()
    assert.deepEqual(runs, [[1], [2, 3]])
    finish[1]!()
    assert.deepEqual(await Promise.all(later), ['#2', '#3'])
  })

  it('gives every caller of a failed batch its error, and runs the next batch anyway', async () => {
    const { batch, runs, finish } = controlled()
    const failing = [batch.add(1), batch.add(2)]
    await turn()
    const next = batch.add(3)
    finish[0]!(new Error('the database is gone'))
    for (const result of failing) await assert.rejects(result, /the database is gone/)
    await turn()
    assert.deepEqual(runs, [[1, 2], [3]])
    finish[1]!()
    assert.equal(await next, '#3')
  })

  it('starts another batch past `max` items', async () => {
    const { batch, runs, finish } = controlled(2)
    const results = [1, 2, 3, 4, 5].map((n) => batch.add(n))
    await turn()
    assert.deepEqual(runs, [[1, 2], [3, 4], [5]])
    for (const done of finish) done()
    assert.deepEqual(await Promise.all(results), ['#1', '#2', '#3', '#4', '#5'])
  })
})
