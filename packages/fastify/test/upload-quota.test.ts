import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { DEFAULT_UPLOAD_QUOTA } from '@helpdesk/core'
import { buildApp, eachDialect } from './helpers.js'
import { expectStatus, expectValidation } from './http-assertions.js'
import { desk, postTicket, storedFiles, upload } from './ticket-fixtures.js'

const text = (bytes: number): Buffer => Buffer.alloc(bytes, 'a')

/** Issue #11 item 7: uploads not yet linked to anything are bounded per user. */
eachDialect((dialect) => {
  describe(`upload quota on ${dialect}`, () => {
    it(`refuses a customer's ${DEFAULT_UPLOAD_QUOTA.maxFiles + 1}th unlinked upload by default, with a clear 422 on file`, async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      for (let i = 0; i < DEFAULT_UPLOAD_QUOTA.maxFiles; i++) expectStatus(await upload(h, d.alice.token, text(10), 'a.txt', 'text/plain'), 201)
      const refused = expectValidation(await upload(h, d.alice.token, text(10), 'a.txt', 'text/plain'), 'file')
      assert.match(refused.file?.[0] ?? '', /50 files and 200 MB/)
      assert.equal(storedFiles(h).length, DEFAULT_UPLOAD_QUOTA.maxFiles, 'nothing stored for the refused upload')
      expectStatus(await upload(h, d.bob.token, text(10), 'b.txt', 'text/plain'), 201)
    })

    it('counts files and bytes of unlinked uploads only, and frees room once an upload is linked or deleted', async (t) => {
      const h = await buildApp(t, dialect, { uploadQuota: { maxFiles: 3, maxBytes: 1000 } })
      const d = await desk(h)
      const ids: string[] = []
      for (let i = 0; i < 3; i++) ids.push(expectStatus(await upload(h, d.alice.token, text(100), 'a.txt', 'text/plain'), 201).data.id)
      expectValidation(await upload(h, d.alice.token, text(100), 'a.txt', 'text/plain'), 'file')
      await postTicket(h, d.alice.token, { category: d.billing, attachments: [ids[0]] })
      expectStatus(await upload(h, d.alice.token, text(100), 'a.txt', 'text/plain'), 201)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/attachments/${ids[1] ?? ''}`, token: d.alice.token }), 200)
      // 200 bytes unlinked: 800 bytes of room. A bigger file is refused while streaming, and nothing of it stays.
      const files = storedFiles(h).length
      expectValidation(await upload(h, d.alice.token, text(801), 'big.txt', 'text/plain'), 'file')
      assert.equal(storedFiles(h).length, files)
      expectStatus(await upload(h, d.alice.token, text(800), 'fits.txt', 'text/plain'), 201)
      expectValidation(await upload(h, d.alice.token, text(1), 'full.txt', 'text/plain'), 'file')
    })

    it('lets no burst of concurrent uploads past the quota', async (t) => {
      const h = await buildApp(t, dialect, { uploadQuota: { maxFiles: 4, maxBytes: 10_000 } })
      const { token } = await h.user('customer')
      const answers = await Promise.all(Array.from({ length: 12 }, async () => await upload(h, token, text(50), 'a.txt', 'text/plain')))
      const statuses = answers.map((res) => res.statusCode).sort()
      assert.deepEqual(statuses, [...Array(4).fill(201), ...Array(8).fill(422)])
      assert.equal(storedFiles(h).length, 4, 'refused uploads leave no file')
      const rows = await h.store.knex('attachments').count({ n: '*' }).first() as { n: number | string }
      assert.equal(Number(rows.n), 4)
    })
  })
})
