import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'

/** `YYYY-MM-DD HH:MM:SS` (CONTRACT §13). */
export const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
/** The agent resource's ISO 8601 form. */
export const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/

/** Asserts the status (showing the body when it differs) and returns the parsed JSON body. */
export function expectStatus (res: LightMyRequestResponse, status: number): any {
  assert.equal(res.statusCode, status, `expected ${status}, got ${res.statusCode}: ${res.body}`)
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/)
  return res.json()
}

/** A 4xx/5xx in the contract's shape: `{ message }` with a readable sentence. */
export function expectError (res: LightMyRequestResponse, status: number): { message: string, errors?: Record<string, string[]> } {
  const body = expectStatus(res, status)
  assert.equal(typeof body.message, 'string', `no message in ${res.body}`)
  assert.ok(body.message.length > 0)
  return body
}

/** A 422 naming exactly `fields` (and only those) under `errors`, each with at least one sentence. */
export function expectValidation (res: LightMyRequestResponse, ...fields: string[]): Record<string, string[]> {
  const body = expectError(res, 422)
  assert.ok(body.errors !== undefined, `no errors in ${res.body}`)
  assert.deepEqual(Object.keys(body.errors).sort(), [...fields].sort(), `error keys of ${res.body}`)
  for (const field of fields) {
    const messages = body.errors[field]
    assert.ok(Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string' && m.length > 0))
  }
  return body.errors
}

/** The 401 of the contract, to the letter. */
export function expectUnauthenticated (res: LightMyRequestResponse): void {
  assert.deepEqual(expectStatus(res, 401), { message: 'Unauthenticated.' })
}

/** The keys of an object, sorted, for comparing shapes. */
export function keysOf (value: unknown): string[] {
  return Object.keys(value as object).sort()
}
