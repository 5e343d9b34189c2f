import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { RevisionReader, TokenCache } from '../src/auth/token-cache.js'

/** A revision source whose reads resolve when the test says so. */
function controlledRevision (): { reader: RevisionReader, reads: number, pending: Array<(value: number) => void> } {
  const state = { reads: 0, pending: [] as Array<(value: number) => void> }
  const reader = new RevisionReader(async () => {
    state.reads++
    return await new Promise<number>((resolve) => { state.pending.push(resolve) })
  })
  return Object.assign(state, { reader })
}

const tick = async (): Promise<void> => { await new Promise((resolve) => setImmediate(resolve)) }

describe('RevisionReader', () => {
  it('never hands a caller a read that started before it asked, but lets callers queued behind one read share the next', async () => {
    const source = controlledRevision()
    const first = source.reader.read()
    await tick()
    assert.equal(source.reads, 1)
    // Both arrive while the first read is under way: they must not get its (possibly stale) answer.
    const second = source.reader.read()
    const third = source.reader.read()
    source.pending.shift()?.(1)
    assert.equal(await first, 1)
    await tick()
    assert.equal(source.reads, 2, 'one more read serves both waiting callers')
    source.pending.shift()?.(2)
    assert.deepEqual(await Promise.all([second, third]), [2, 2])
  })

  it('gathers the callers of one turn of the event loop into one read, started after the last of them asked', async () => {
    const source = controlledRevision()
    const calls = [source.reader.read(), source.reader.read(), source.reader.read()]
    assert.equal(source.reads, 0, 'no read starts while callers of this turn may still ask')
    await tick()
    assert.equal(source.reads, 1)
    const late = source.reader.read()
    source.pending.shift()?.(5)
    assert.deepEqual(await Promise.all(calls), [5, 5, 5])
    await tick()
    assert.equal(source.reads, 2, 'a caller that asked after the read had started gets a read of its own')
    source.pending.shift()?.(6)
    assert.equal(await late, 6)
  })

  it('starts a fresh read for a caller arriving after the last one finished, and survives a failed read', async () => {
    let n = 0
    const reader = new RevisionReader(async () => {
      n++
      if (n === 2) throw new Error('database down')
      return n
    })
    assert.equal(await reader.read(), 1)
    await assert.rejects(reader.read(), /database down/)
    assert.equal(await reader.read(), 3)
  })
})

describe('TokenCache', () => {
  const clock = { time: 0, now () { return new Date(this.time) } }
  const cache = (revision: () => number, options = {}): TokenCache<string> =>
    new TokenCache<string>(new RevisionReader(async () => revision()), clock, options)

  it('serves a cached value while the revision stands and the entry is young, and loads again otherwise', async () => {
    let revision = 7
    let loads = 0
    const tokens = cache(() => revision, { ttlMs: 1000 })
    const load = async (): Promise<{ value: string, revision: number }> => { loads++; return { value: `user@${revision}`, revision } }
    clock.time = 0
    assert.equal(await tokens.get('a', load), 'user@7')
    assert.equal(await tokens.get('a', load), 'user@7')
    assert.equal(loads, 1)
    revision = 8
    assert.equal(await tokens.get('a', load), 'user@8', 'a moved revision (a revocation) forces a new lookup')
    assert.equal(loads, 2)
    clock.time = 1500
    assert.equal(await tokens.get('a', load), 'user@8')
    assert.equal(loads, 3, 'an entry older than the TTL is looked up again')
  })

  it('never caches a refused token, drops the oldest entry when full, and can be switched off', async () => {
    clock.time = 0
    let loads = 0
    const tokens = cache(() => 1, { maxEntries: 2 })
    const refused = async (): Promise<{ value: null, revision: number }> => { loads++; return { value: null, revision: 1 } }
    assert.equal(await tokens.get('bad', refused), null)
    assert.equal(await tokens.get('bad', refused), null)
    assert.equal(loads, 2)
    const found = (value: string) => async () => { loads++; return { value, revision: 1 } }
    await tokens.get('x', found('x'))
    await tokens.get('y', found('y'))
    await tokens.get('z', found('z'))
    loads = 0
    await tokens.get('z', found('z'))
    await tokens.get('y', found('y'))
    assert.equal(loads, 0)
    await tokens.get('x', found('x'))
    assert.equal(loads, 1, 'the oldest entry went first')
    const off = cache(() => 1, { ttlMs: 0 })
    loads = 0
    await off.get('k', found('k'))
    await off.get('k', found('k'))
    assert.equal(loads, 2)
  })
})
