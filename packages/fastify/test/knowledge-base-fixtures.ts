import { noPermissions } from '@helpdesk/core'
import type { TestApp } from './helpers.js'
import { expectStatus } from './http-assertions.js'

/** Test data for custom fields, canned responses and the knowledge base, created through the API. */

export async function createCategory (h: TestApp, token: string, name = 'General', extra: object = {}): Promise<{ id: number, name: string }> {
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/categories', token, payload: { name, ...extra } }), 201).data
}

export async function createCollection (h: TestApp, token: string, payload: { category_id: number, name?: string, visibility?: number }): Promise<any> {
  const body = { name: 'Getting started', visibility: 1, ...payload }
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/article-collections', token, payload: body }), 201).data
}

export async function createArticle (
  h: TestApp, token: string, payload: { category: number, collection: number, title?: string, body?: string, status?: string, tags?: string[] }
): Promise<any> {
  const body = { title: 'How to start', body: '<p>Read this.</p>', status: 'published', ...payload }
  return expectStatus(await h.inject({ method: 'POST', url: '/api/v1/articles', token, payload: body }), 201).data
}

/** An agent holding `manage_articles`. */
export async function articleEditor (h: TestApp): Promise<Awaited<ReturnType<TestApp['user']>>> {
  const agent = await h.user('agent')
  await h.store.users.update(agent.user.id, { permissions: { ...noPermissions(), manage_articles: true } })
  return agent
}

/** GET `url` and return the `data` of a 200. */
export async function getData (h: TestApp, url: string, token?: string): Promise<any> {
  return expectStatus(await h.inject({ method: 'GET', url: `/api/v1${url}`, ...(token !== undefined ? { token } : {}) }), 200).data
}

export function ids (items: Array<{ id: number }>): number[] {
  return items.map((i) => i.id)
}
