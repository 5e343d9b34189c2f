import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import {
  agentList, articleList, cannedResponseList, categoryList, collectionList, commentList, customerList, customerNoteList,
  customFieldList, notificationList, ticketList, type ListSpec
} from '@helpdesk/core'
import { buildApp, eachDialect } from './helpers.js'
import { expectError, expectStatus } from './http-assertions.js'
import { buildAccessWorld, type AccessWorld } from './security/access-world.js'

/** Every list route, with its declaration (the names its cursor, sorts and filters use). */
function listRoutes (w: AccessWorld): Array<{ url: string, spec: ListSpec }> {
  return [
    { url: '/customers', spec: customerList },
    { url: `/customers/${w.owner.user.id}/notes`, spec: customerNoteList },
    { url: '/agents', spec: agentList },
    { url: '/categories', spec: categoryList },
    { url: '/notifications', spec: notificationList },
    { url: '/fields', spec: customFieldList },
    { url: '/canned-responses', spec: cannedResponseList },
    { url: '/article-collections', spec: collectionList },
    { url: '/articles', spec: articleList },
    { url: '/tickets', spec: ticketList },
    { url: `/tickets/${w.ticket}/comments`, spec: commentList }
  ]
}

const cursorOf = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

type KeyType = NonNullable<ListSpec['keyTypes']>[string]

const NOT_SCALAR: unknown[] = [[1], { a: 1 }, null]
/** Values of the wrong type (or out of any column's range) for a key of each type. */
const WRONG_VALUES: Record<KeyType, unknown[]> = {
  int: ['1', 'abc', 1e300, 2 ** 53, 2 ** 31, -(2 ** 40), 1.5, true, ...NOT_SCALAR],
  datetime: ['not a time', '2024-13-45 99:99:99', '2024-02-30 10:00:00', '99999-01-01 00:00:00', '2024-01-01T00:00:00Z', 1, true, ...NOT_SCALAR],
  string: ['x'.repeat(20_000), 'a\u0000b', 1, true, ...NOT_SCALAR],
  bool: ['true', 2, -1, ...NOT_SCALAR]
}
/** A value of the right type for a key. */
const RIGHT_VALUE: Record<KeyType, unknown> = { int: 1, datetime: '2024-01-01 00:00:00', string: 'a', bool: true }

/** A 4xx in the contract's shape, never a 500. */
function expectRefusal (res: LightMyRequestResponse, what: string): void {
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`)
  const body = res.json() as { message?: unknown }
  assert.equal(typeof body.message, 'string', `${what}: ${res.body.slice(0, 300)}`)
}

eachDialect((dialect) => {
  describe(`tampered list queries on ${dialect}`, () => {
    it('refuses a cursor it did not issue for this list and sort with a 400 on every list, and takes its own', async (t) => {
      const h = await buildApp(t, dialect)
      const w = await buildAccessWorld(h)
      await w.fresh.note()
      const get = async (url: string): Promise<LightMyRequestResponse> => await h.inject({ method: 'GET', url: `/api/v1${url}`, token: w.admin.token })
      const join = (url: string, query: string): string => `${url}${url.includes('?') ? '&' : '?'}${query}`
      for (const { url, spec } of listRoutes(w)) {
        for (const field of spec.sorts) {
          for (const sort of [field, `-${field}`]) {
            const signature = sort
            const good = expectStatus(await get(join(url, `sort=${sort}&per_page=1&cursor=`)), 200)
            assert.ok(good.meta !== undefined, `${url}: ${JSON.stringify(good).slice(0, 300)}`)
            // The server's own cursors are taken back.
            if (good.meta.next_cursor !== null) expectStatus(await get(join(url, `sort=${sort}&per_page=1&cursor=${encodeURIComponent(good.meta.next_cursor as string)}`)), 200)
            const wrong = async (cursor: string, what: string): Promise<void> => {
              const res = await get(join(url, `sort=${sort}&cursor=${encodeURIComponent(cursor)}`))
              assert.equal(res.statusCode, 400, `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`)
              expectError(res, 400)
            }
            const keyType = spec.keyTypes?.[field] ?? 'string'
            const idType = spec.keyTypes?.id ?? 'int'
            const idValue = idType === 'string' ? '00000000-0000-0000-0000-000000000000' : 1
            for (const value of WRONG_VALUES[keyType]) await wrong(cursorOf([signature, [value, idValue], 0]), `${url} ${sort} key ${JSON.stringify(value).slice(0, 40)}`)
            for (const value of WRONG_VALUES[idType]) await wrong(cursorOf([signature, [RIGHT_VALUE[keyType], value], 0]), `${url} ${sort} id ${JSON.stringify(value).slice(0, 40)}`)
            expectStatus(await get(join(url, `sort=${sort}&cursor=${encodeURIComponent(cursorOf([signature, [RIGHT_VALUE[keyType], idValue], 0]))}`)), 200)
            // Another sort's cursor, another list's shape, garbage.
            await wrong(cursorOf([signature === 'id' ? 'created_at' : 'id', [1, 1], 0]), 'another sort')
            await wrong(cursorOf([signature, [1], 0]), 'too few values')
            await wrong(cursorOf([signature, [1, 1], 2]), 'no direction')
            await wrong(cursorOf({ sort: signature }), 'an object')
            await wrong('%%%not base64%%%', 'garbage')
            await wrong(Buffer.from([0xff, 0xfe, 0x00, 0x80]).toString('base64url'), 'binary')
          }
        }
      }
    })

    it('answers wrong types in filters, sorts and paging with a 4xx {message} on every list, never a 500', async (t) => {
      const h = await buildApp(t, dialect)
      const w = await buildAccessWorld(h)
      const junk = ['abc', '99999999999999999999', '-1', '1e400', '1,abc', '2024-13-45', '%00', 'x'.repeat(5000)]
      for (const caller of [w.admin, w.owner]) {
        for (const { url, spec } of listRoutes(w)) {
          const queries: string[] = [
            'sort=nope', 'sort[]=id', 'sort=,,,', 'page=abc', 'page=99999999999999999999', 'per_page=-5', 'per_page[]=1',
            'cursor[]=x', 'include=nope', 'filter=abc', 'filter[nope]=1'
          ]
          for (const name of [...spec.exactFilters, ...spec.partialFilters, ...(spec.sinceFilters ?? [])]) {
            for (const value of junk) queries.push(`filter[${name}]=${encodeURIComponent(value)}`)
            queries.push(`filter[${name}][]=1`, `filter[${name}][a]=1`)
          }
          for (const query of queries) {
            const res = await h.inject({ method: 'GET', url: `/api/v1${url}?${query}`, token: caller.token })
            if (res.statusCode === 200 || res.statusCode === 403 || res.statusCode === 404) continue
            expectRefusal(res, `${url}?${query}`)
          }
        }
      }
    })
  })
})
