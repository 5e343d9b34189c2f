import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import ts from 'typescript'
import { createHelpdesk, createLocalFileStorage } from '@helpdesk/core'
import { createKnexStore, createTestDatabase } from '@helpdesk/store-knex'
import helpdeskPlugin from '../src/index.js'
import { eachDialect, testHasher } from './helpers.js'
import { expectError } from './http-assertions.js'

const person = { first_name: 'New', last_name: 'Person', email: 'new@example.com', password: 'secret123', password_confirmation: 'secret123' }

describe('plugin options: a store with the service options, or prebuilt services', () => {
  it('make a service option next to a prebuilt `helpdesk` a type error (test/types/plugin-options.ts)', () => {
    // Against the built declarations (`@helpdesk/fastify` resolves to dist/): run `pnpm build` first.
    const file = fileURLToPath(new URL('./types/plugin-options.ts', import.meta.url))
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node']
    })
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n') +
      (d.file !== undefined && d.start !== undefined ? ` (line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1})` : ''))
    assert.deepEqual(diagnostics, [])
  })

  it('stop the start-up of a JavaScript caller who passes them anyway, naming them', async (t) => {
    const store = createKnexStore({ url: 'sqlite::memory:' })
    t.after(async () => { await store.close() })
    const desk = createHelpdesk({ store, hasher: testHasher })
    const misplaced: Array<[string, Record<string, unknown>]> = [
      ['registration', { registration: false }],
      ['marketplace', { marketplace: { verifyPurchaseCode: async () => ({ valid: true, supportedUntil: null }) } }],
      ['storageDir', { storageDir: './files' }],
      ['fileStorage', { fileStorage: createLocalFileStorage('./files') }],
      ['hasher', { hasher: testHasher }],
      ['tokenCache', { tokenCache: { ttlMs: 0 } }],
      ['store', { store }],
      ['mail.from', { mail: { from: 'support@example.com', inboundSecret: 'secret' } }]
    ]
    for (const [name, extra] of misplaced) {
      const app = Fastify({ logger: false })
      await assert.rejects(async () => {
        await app.register(helpdeskPlugin, { helpdesk: desk, workers: false, ...extra } as never)
        await app.ready()
      }, (error: Error) => error.message.includes(`\`${name}\``) && error.message.includes('prebuilt `helpdesk`'), name)
      await app.close()
    }
    // Only the HTTP side of mail, the inbound secret, stays with the plugin.
    const app = Fastify({ logger: false })
    await app.register(helpdeskPlugin, { helpdesk: desk, workers: false, rateLimit: false, mail: { inboundSecret: 'secret' } })
    await app.ready()
    await app.close()
  })
})

eachDialect((dialect) => {
  describe(`registration, set in one place, on ${dialect}`, () => {
    it('is createHelpdesk\'s with prebuilt services, the plugin\'s (passed to createHelpdesk) otherwise', async (t) => {
      const db = await createTestDatabase(dialect)
      const store = createKnexStore({ url: db.url })
      await store.migrate()
      const storageDir = mkdtempSync(join(tmpdir(), 'helpdesk-files-'))
      t.after(async () => { await store.close(); await db.drop(); rmSync(storageDir, { recursive: true, force: true }) })

      const prebuilt = Fastify({ logger: false })
      await prebuilt.register(helpdeskPlugin, { helpdesk: createHelpdesk({ store, hasher: testHasher, registration: false }), workers: false, rateLimit: false })
      t.after(async () => { await prebuilt.close() })
      expectError(await prebuilt.inject({ method: 'POST', url: '/api/v1/auth/register', payload: person }), 403)

      const built = Fastify({ logger: false })
      await built.register(helpdeskPlugin, { store, storageDir, hasher: testHasher, registration: false, tokenCache: { ttlMs: 0 }, workers: false, rateLimit: false })
      t.after(async () => { await built.close() })
      expectError(await built.inject({ method: 'POST', url: '/api/v1/auth/register', payload: person }), 403)
      assert.equal(await store.users.findByEmail(person.email), null, 'no account was made')
    })
  })
})
