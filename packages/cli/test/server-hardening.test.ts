import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createTestDatabase } from '@helpdesk/store-knex'
import { serve } from '../src/commands/serve.js'
import type { CliIo } from '../src/io.js'

const quiet: CliIo = { out: () => {}, err: () => {} }

describe('helpdesk serve hardening', () => {
  it('answers every URL, API or not, with nosniff, no X-Powered-By, and a JSON message for errors', async (t) => {
    const db = await createTestDatabase('sqlite')
    process.env.HELPDESK_QUIET = '1'
    const server = await serve({ database: db.url, port: '0', host: '127.0.0.1' }, quiet)
    t.after(async () => {
      await server.close()
      await db.drop()
    })
    const origin = server.url.replace(/\/api\/v1$/, '')
    const cases: Array<[string, number, string | null]> = [
      ['/', 200, null],
      ['/kb', 200, null],
      ['/api/v1/no-such-route', 404, 'Not found.'],
      ['/docs', 200, null],
      ['/api/v1/health', 200, null],
      ['/api/v1/auth/me', 401, 'Unauthenticated.'],
      [`/api/v1/tickets/${'7'.repeat(500)}`, 404, 'Not found.'],
      ['/api/v1/tickets/%E0%A4%A', 400, 'The URL is malformed.'],
      ['/docs/%E0%A4%A', 400, 'The URL is malformed.']
    ]
    for (const [path, status, message] of cases) {
      const res = await fetch(`${origin}${path}`, { redirect: 'manual' })
      const body = await res.text()
      assert.ok(res.status === status || (path === '/docs' && res.status === 302), `${path}: ${res.status} ${body.slice(0, 100)}`)
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path)
      assert.equal(res.headers.get('x-powered-by'), null, path)
      if (message !== null) {
        assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/, path)
        assert.deepEqual(JSON.parse(body), { message }, path)
      }
    }
  })
})
