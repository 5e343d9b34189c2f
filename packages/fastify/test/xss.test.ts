import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { escapeHtml, sanitizeBody, ValidationError } from '@helpdesk/core'
import { buildApp, eachDialect, type TestApp } from './helpers.js'
import { executableParts } from './security/executable-html.js'
import { XSS_VECTORS } from './security/xss-vectors.js'

type Person = Awaited<ReturnType<TestApp['user']>>

interface Desk {
  h: TestApp
  admin: Person
  customer: Person
  category: number
  collection: number
  ticket: number
}

/**
 * A surface stores a vector and gives back every place it comes back from:
 * the write's own response and the reads of the stored value.
 */
type Surface = (desk: Desk, vector: string) => Promise<{ write: LightMyRequestResponse, readBack: () => Promise<string[]> }>

async function json (h: TestApp, method: 'GET' | 'POST' | 'PATCH', url: string, token: string | undefined, payload?: object): Promise<any> {
  const res = await h.inject({ method, url: `/api/v1${url}`, ...(token !== undefined ? { token } : {}), ...(payload !== undefined ? { payload } : {}) })
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
  return res.json().data
}

const surfaces: Record<string, Surface> = {
  'ticket body': async ({ h, customer, category }, vector) => {
    const write = await h.inject({ method: 'POST', url: '/api/v1/tickets', token: customer.token, payload: { category, title: 'XSS', body: vector } })
    return {
      write,
      readBack: async () => {
        const id = write.json().data.id as number
        const listed = (await json(h, 'GET', '/tickets?sort=-id&per_page=1', customer.token)) as Array<{ body: string }>
        return [write.json().data.body, (await json(h, 'GET', `/tickets/${id}`, customer.token)).body, listed[0]?.body ?? '']
      }
    }
  },
  'comment body': async ({ h, admin, customer, ticket }, vector) => {
    const write = await h.inject({ method: 'POST', url: `/api/v1/tickets/${ticket}/comments`, token: admin.token, payload: { body: vector, type: 1, private: false } })
    return {
      write,
      readBack: async () => {
        const id = write.json().data.id as number
        const edited = await json(h, 'PATCH', `/comments/${id}`, admin.token, { body: `${vector} ` })
        const lastReply = (await json(h, 'GET', `/tickets/${ticket}?include=last_reply`, customer.token)).last_reply
        return [write.json().data.body, edited.body, (await json(h, 'GET', `/comments/${id}`, customer.token)).body, lastReply.body]
      }
    }
  },
  'article body': async ({ h, admin, category, collection }, vector) => {
    const write = await h.inject({ method: 'POST', url: '/api/v1/articles', token: admin.token, payload: { title: 'XSS', body: vector, category, collection, status: 'published' } })
    return {
      write,
      readBack: async () => {
        const id = write.json().data.id as number
        return [write.json().data.body, (await json(h, 'GET', `/articles/${id}`, undefined)).body]
      }
    }
  },
  'customer note': async ({ h, admin, customer }, vector) => {
    const write = await h.inject({ method: 'POST', url: `/api/v1/customers/${customer.user.id}/notes`, token: admin.token, payload: { note: vector } })
    return {
      write,
      readBack: async () => {
        const id = write.json().data.id as number
        const notes = (await json(h, 'GET', `/customers/${customer.user.id}/notes?per_page=100`, admin.token)) as Array<{ id: number, text: string }>
        return [write.json().data.text, notes.find((note) => note.id === id)?.text ?? '']
      }
    }
  },
  'canned response': async ({ h, admin, ticket }, vector) => {
    const write = await h.inject({ method: 'POST', url: '/api/v1/canned-responses', token: admin.token, payload: { name: 'XSS', body: vector, global: true } })
    return {
      write,
      readBack: async () => {
        const id = write.json().data.id as number
        const rendered = await json(h, 'GET', `/canned-responses/${id}/placeholders/${ticket}`, admin.token)
        return [write.json().data.body, (await json(h, 'GET', `/canned-responses/${id}`, admin.token)).body, rendered.response]
      }
    }
  }
}

async function buildDesk (h: TestApp): Promise<Desk> {
  const admin = await h.user('admin')
  const customer = await h.user('customer')
  const category = (await h.helpdesk.categories.create(admin.user, { name: 'Web' })).id
  const collection = (await h.helpdesk.collections.create(admin.user, { category_id: category, name: 'Public', visibility: 1 })).id
  const ticket = (await h.helpdesk.tickets.create(customer.user, { category, title: 'Help', body: 'Please.' })).id
  return { h, admin, customer, category, collection, ticket }
}

describe('the executable-HTML oracle', () => {
  it('flags the raw vectors, as a browser would run them, and passes ordinary formatting', () => {
    const flagged = XSS_VECTORS.filter((vector) => executableParts(vector).length > 0)
    // The rest are inert in today's browsers (Netscape entities, US-ASCII tricks, backtick quotes, JS-string payloads).
    assert.ok(flagged.length >= XSS_VECTORS.length * 0.9, `only ${flagged.length} of ${XSS_VECTORS.length} raw vectors flagged`)
    assert.deepEqual(executableParts('<p>Hi <strong>there</strong>, see <a href="https://example.com/a?b=1" rel="noopener">this</a> and <img src="https://example.com/i.png" alt="i"> or mail <a href="mailto:a@example.com">us</a>.</p>'), [])
  })
})

eachDialect((dialect) => {
  describe(`XSS on ${dialect}`, () => {
    it('no OWASP filter-evasion vector comes back executable from a ticket, comment, article, note or canned response', async (t) => {
      const desk = await buildDesk(await buildApp(t, dialect))
      for (const [name, surface] of Object.entries(surfaces)) {
        await t.test(name, async () => {
          const problems: string[] = []
          let stored = 0
          for (const vector of XSS_VECTORS) {
            const { write, readBack } = await surface(desk, vector)
            // Refused outright (a body that is empty once cleaned): nothing was stored, nothing comes back.
            if (write.statusCode === 422) continue
            if (write.statusCode !== 201) {
              problems.push(`${vector}\n    -> ${write.statusCode} ${write.body}`)
              continue
            }
            stored++
            for (const html of await readBack()) {
              const found = executableParts(html)
              if (found.length > 0) problems.push(`${vector}\n    -> ${html}\n    ${found.join('; ')}`)
            }
          }
          assert.deepEqual(problems, [], `executable HTML came back:\n${problems.join('\n')}`)
          // Many vectors keep some harmless text and are stored cleaned; the test must not pass by refusing everything.
          assert.ok(stored >= XSS_VECTORS.length / 3, `only ${stored} of ${XSS_VECTORS.length} vectors were stored`)
        })
      }
    })

    it('escapes hostile ticket, customer and category text inserted by canned-response placeholders', async (t) => {
      const h = await buildApp(t, dialect)
      const admin = await h.user('admin')
      const response = await h.helpdesk.cannedResponses.create(admin.user, {
        name: 'All', global: true, body: '<p>{{ ticket.title }} {{ticket.category}} {{customer.first_name}} {{customer.last_name}} {{agent.first_name}}</p>'
      })
      const { token } = await h.helpdesk.auth.createToken(admin.user, 'xss')
      const problems: string[] = []
      let rendered = 0
      for (const [index, raw] of XSS_VECTORS.filter((v) => [...v].length <= 240).entries()) {
        // Some text first: a title of nothing but tags would be blank once stripped.
        const vector = `x ${raw}`
        let ticket
        try {
          const customer = await h.helpdesk.customers.create(admin.user, { first_name: vector, last_name: vector, email: `c${index}@example.com`, password: 'secret123', password_confirmation: 'secret123' })
          const category = await h.helpdesk.categories.create(admin.user, { name: vector })
          ticket = await h.helpdesk.tickets.create(admin.user, { category: category.id, title: vector, body: 'Body.', customer_id: customer.id })
        } catch (error) {
          if (error instanceof ValidationError) {
            problems.push(`${raw}\n    -> refused: ${JSON.stringify(error.errors)}`)
            continue
          }
          throw error
        }
        const res = await h.inject({ method: 'GET', url: `/api/v1/canned-responses/${response.id}/placeholders/${ticket.id}`, token })
        assert.equal(res.statusCode, 200, res.body)
        const html = res.json().data.response as string
        rendered++
        const found = executableParts(html)
        if (found.length > 0) problems.push(`${vector}\n    -> ${html}\n    ${found.join('; ')}`)
        // Escaped when filled, then serialised by the sanitiser that runs over the filled body.
        assert.ok(html.includes(sanitizeBody(escapeHtml(ticket.title))), `the title is shown, escaped: ${html}`)
      }
      assert.ok(rendered >= 50, `only ${rendered} vectors rendered`)
      assert.deepEqual(problems, [], problems.join('\n'))
    })
  })
})
