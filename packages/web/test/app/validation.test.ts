import { test } from 'node:test'
import assert from 'node:assert/strict'
import { labelledMessage, localProblem } from '../../src/app/validation.js'

test('the API\'s 422 sentences read in the form\'s own words', () => {
  assert.equal(labelledMessage('The title field is required.', 'title', 'Subject'), 'Subject is required.')
  assert.equal(labelledMessage('The Operating system field is required.', 'fields.3', 'Operating system'), 'Operating system is required.')
  assert.equal(labelledMessage('The title may not be greater than 250 characters.', 'title', 'Subject'), 'Subject may be at most 250 characters.')
  assert.equal(labelledMessage('The email must be a valid email address.', 'email', 'Email'), 'Email must be an email address.')
  assert.equal(labelledMessage('The selected category is invalid.', 'category', 'Category'), 'Choose a valid Category.')
  assert.equal(labelledMessage('The first name contains markup.', 'first_name', 'First name'), 'First name contains markup.')
  assert.equal(labelledMessage('Passwords do not match.', 'password_confirmation', 'Repeat the password'), 'Passwords do not match.')
})

test('a changed field shows only what is still wrong with it', () => {
  assert.equal(localProblem('  ', 'Subject', true), 'Subject is required.')
  assert.equal(localProblem('Printer', 'Subject', true), undefined)
  assert.equal(localProblem('', 'Company', false), undefined)
})
