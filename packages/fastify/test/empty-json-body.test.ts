import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildApp, eachDialect } from './helpers.js'
import { expectError, expectStatus, expectValidation } from './http-assertions.js'
import { desk, postComment, postTicket, settle } from './ticket-fixtures.js'

const JSON_TYPE = { 'content-type': 'application/json' }

/** CONTRACT §17: `Content-Type: application/json` with an empty body reads as `{}`, on every route. */
eachDialect((dialect) => {
  describe(`empty JSON bodies on ${dialect}`, () => {
    it('carries out body-less actions sent with Content-Type: application/json and no body', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      const reply = await postComment(h, d.admin.token, ticket.id)
      await settle()
      const notification = (expectStatus(await h.inject({ method: 'GET', url: '/api/v1/notifications', token: d.alice.token }), 200).data as Array<{ id: string }>)[0]
      assert.ok(notification !== undefined)
      const send = async (method: 'PUT' | 'DELETE' | 'POST' | 'GET', url: string, token: string, payload = '') =>
        await h.inject({ method, url: `/api/v1${url}`, token, headers: JSON_TYPE, payload })
      expectStatus(await send('PUT', `/tickets/${ticket.id}/privacy`, d.alice.token), 200)
      expectStatus(await send('DELETE', `/tickets/${ticket.id}/privacy`, d.alice.token), 200)
      expectStatus(await send('PUT', `/tickets/${ticket.id}/privacy`, d.alice.token, '  \n'), 200)
      expectStatus(await send('PUT', `/comments/${reply.id}/privacy`, d.admin.token), 200)
      expectStatus(await send('DELETE', `/comments/${reply.id}/privacy`, d.admin.token), 200)
      expectStatus(await send('POST', `/notifications/${notification.id}/read`, d.alice.token), 200)
      expectStatus(await send('DELETE', `/notifications/${notification.id}/read`, d.alice.token), 200)
      expectStatus(await send('GET', `/tickets/${ticket.id}`, d.alice.token), 200)
      const created = expectStatus(await send('POST', '/auth/tokens', d.alice.token), 201).data
      expectStatus(await send('DELETE', `/auth/tokens/${created.id as number}`, d.alice.token), 200)
      expectStatus(await send('DELETE', `/tickets/${ticket.id}`, d.admin.token), 200)
      expectStatus(await send('POST', '/auth/logout', d.bob.token), 200)
      // A route that needs a body says what is missing (422), not that the JSON is bad.
      expectValidation(await send('PUT', `/tickets/${ticket.id}/agents`, d.admin.token), 'agent')
    })

    it('never answers an empty JSON body with a 400 about the body, on any route', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('admin')
      const problems: string[] = []
      for (const route of h.routeOptions) {
        if (route.method === 'GET' || route.url.endsWith('/attachments')) continue
        const url = route.url.replace(/:(\w+)/g, (_, name: string) => name === 'id' && route.url.includes('/notifications/') ? '3f1c2b1e-0000-4000-8000-000000000000' : '999999')
        const res = await h.inject({ method: route.method as 'POST', url, token, headers: JSON_TYPE, payload: '' })
        if (res.statusCode === 400 && /body|json/i.test(res.body)) problems.push(`${route.method} ${route.url}: ${res.body}`)
      }
      assert.deepEqual(problems, [])
    })

    it('still answers malformed JSON with 400 {message}, and keeps prototype poisoning out', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing })
      for (const payload of ['{', 'nope', '{"title": }', '[1,']) {
        const body = expectError(await h.inject({ method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, headers: JSON_TYPE, payload }), 400)
        assert.deepEqual(Object.keys(body), ['message'])
      }
      expectError(await h.inject({
        method: 'PATCH', url: `/api/v1/tickets/${ticket.id}`, token: d.alice.token, headers: JSON_TYPE, payload: '{"__proto__": {"admin": true}, "title": "x"}'
      }), 400)
    })
  })
})
