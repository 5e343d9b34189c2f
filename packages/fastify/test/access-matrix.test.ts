import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { accessTable, routesOf } from './security/access-table.js'
import { ACTORS, buildAccessWorld, personOf } from './security/access-world.js'

const PREFIX = '/api/v1'

/** The contract's error shape for a refused cell: `{ message }` (the 401 to the letter). */
function errorShapeProblem (status: number, body: string): string | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return `a ${status} whose body is not JSON: ${body.slice(0, 100)}`
  }
  const message = (parsed as { message?: unknown }).message
  if (typeof message !== 'string' || message === '') return `a ${status} without a message: ${body.slice(0, 100)}`
  if (status === 401 && message !== 'Unauthenticated.') return `a 401 saying "${message}"`
  return null
}

eachDialect((dialect) => {
  describe(`access matrix on ${dialect}`, () => {
    it('has a row for every registered route, and no row for a route that does not exist', async (t) => {
      const h = await buildApp(t, dialect)
      const registered = new Set(h.routes.map((route) => route.replace(` ${PREFIX}/`, ' /')))
      const tabled = new Set(accessTable.flatMap(routesOf))
      const missing = [...registered].filter((route) => !tabled.has(route))
      const stale = [...tabled].filter((route) => !registered.has(route))
      assert.deepEqual(missing, [], `routes without a row in test/security/access-table.ts: ${missing.join(', ')}`)
      assert.deepEqual(stale, [], `rows for routes that are not registered: ${stale.join(', ')}`)
    })

    it('gives every actor the declared outcome on every route', async (t) => {
      const h = await buildApp(t, dialect)
      const world = await buildAccessWorld(h)
      let cells = 0
      for (const accessRow of accessTable) {
        for (const route of routesOf(accessRow)) {
          const [method = 'GET'] = route.split(' ')
          await t.test(`${route} (privileged: ${accessRow.privileged})`, async () => {
            const problems: string[] = []
            for (const [index, actor] of ACTORS.entries()) {
              const person = personOf(world, actor, accessRow.privileged)
              const request = await accessRow.request({ w: world, actor, person })
              const token = request.token ?? person?.token
              const res = await h.inject({
                method: method as 'GET',
                url: `${PREFIX}${request.url}`,
                ...(request.payload !== undefined ? { payload: request.payload as string } : {}),
                headers: { ...request.headers, ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) }
              })
              cells++
              const expected = accessRow.expect[index]
              if (res.statusCode !== expected) {
                problems.push(`${actor}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 160)}`)
              } else if (res.statusCode < 300 && accessRow.check !== undefined) {
                const problem = accessRow.check({ w: world, actor, person }, res.json())
                if (problem !== null) problems.push(`${actor}: ${problem}`)
              } else if (res.statusCode >= 400) {
                const problem = errorShapeProblem(res.statusCode, res.body)
                if (problem !== null) problems.push(`${actor}: ${problem}`)
              }
            }
            assert.deepEqual(problems, [], `${route}:\n  ${problems.join('\n  ')}`)
          })
        }
      }
      t.diagnostic(`access matrix on ${dialect}: ${cells} cells (${cells / ACTORS.length} route rows x ${ACTORS.length} actors)`)
    })
  })
})
