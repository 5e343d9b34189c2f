import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ApiError, decodePlainText, foldFieldErrors, listQuery, toApiError } from '../../src/app/api-errors.js'

test('a 422 keeps the message and every field sentence, dotted paths included', () => {
  const error = toApiError(422, {
    message: 'The category field is required. (and 1 more error)',
    errors: { category: ['The category field is required.'], 'fields.3': ['The Operating system field is required.'] }
  }, 'fallback')
  assert.ok(error instanceof ApiError)
  assert.equal(error.status, 422)
  assert.equal(error.message, 'The category field is required. (and 1 more error)')
  assert.equal(error.fieldError('category'), 'The category field is required.')
  assert.equal(error.fieldError('fields.3'), 'The Operating system field is required.')
  assert.equal(error.fieldError('title'), undefined)
})

test('an error without a usable body gets the fallback message and no field errors', () => {
  for (const body of [null, 'Bad gateway', { message: '' }, { errors: 'nope' }]) {
    const error = toApiError(502, body, 'The request failed (HTTP 502).')
    assert.equal(error.message, 'The request failed (HTTP 502).')
    assert.deepEqual(error.errors, {})
  }
})

test('a single string instead of a list of sentences still marks the field; non-strings are dropped', () => {
  const error = toApiError(422, { message: 'Invalid.', errors: { email: 'The email is taken.', name: [1, 'Too long.'] } }, 'x')
  assert.deepEqual(error.errors, { email: ['The email is taken.'], name: ['Too long.'] })
})

test('list queries use the API syntax: include, sort, filter[name] lists, cursor', () => {
  const query = listQuery({ include: ['user', 'last_read_by_me'], sort: '-updated_at', filter: { status: [1, 2], search: 'vat', agents: undefined, categories: '' }, per_page: 25, cursor: '' })
  const params = new URLSearchParams(query.slice(1))
  assert.equal(params.get('include'), 'user,last_read_by_me')
  assert.equal(params.get('sort'), '-updated_at')
  assert.equal(params.get('filter[status]'), '1,2')
  assert.equal(params.get('filter[search]'), 'vat')
  assert.equal(params.has('filter[agents]'), false)
  assert.equal(params.has('filter[categories]'), false)
  assert.equal(params.get('cursor'), '', 'an empty cursor asks for the first cursor page')
  assert.equal(params.get('per_page'), '25')
  assert.equal(listQuery({}), '')
})

test('plain-text fields show their escaped angle brackets as typed; HTML bodies are left alone', () => {
  const decoded = decodePlainText({
    data: [{ title: 'a &lt;b&gt; c', body: '<p>x &lt; y</p>', user: { first_name: 'Ann &lt;3' }, tags: [{ name: '&lt;t&gt;' }], id: 3 }]
  })
  assert.deepEqual(decoded, { data: [{ title: 'a <b> c', body: '<p>x &lt; y</p>', user: { first_name: 'Ann <3' }, tags: [{ name: '<t>' }], id: 3 }] })
})

test('a list item\'s sentence (tags.2) shows on the list\'s single control', () => {
  const error = new ApiError(422, 'The tag may not be blank.', { 'tags.2': ['The tag may not be blank.'] })
  assert.equal(foldFieldErrors(error, 'tags')?.fieldError('tags'), 'The tag may not be blank.')
  assert.equal(foldFieldErrors(error, 'title')?.fieldError('title'), undefined)
  assert.equal(foldFieldErrors(undefined, 'tags'), undefined)
  const own = new ApiError(422, 'Too many.', { tags: ['Too many.'], 'tags.0': ['Blank.'] })
  assert.equal(foldFieldErrors(own, 'tags')?.fieldError('tags'), 'Too many.')
})
