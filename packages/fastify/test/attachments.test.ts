import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { buildApp, eachDialect } from './helpers.js'
import { DATETIME, expectError, expectStatus, expectUnauthenticated, expectValidation, keysOf } from './http-assertions.js'
import { desk, multipart, PNG, postComment, postTicket, storedFiles, upload, uploadId } from './ticket-fixtures.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const MB = 2 ** 20

eachDialect((dialect) => {
  describe(`attachments on ${dialect}`, () => {
    it('stores an upload under a generated name with the type sniffed from its bytes (201)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const text = expectStatus(await upload(h, d.alice.token, Buffer.from('plain words\n'), '../../etc/notes.txt', 'image/png'), 201).data
      assert.deepEqual(keysOf(text), ['created_at', 'file_name', 'id', 'mime_type', 'name', 'size', 'updated_at', 'user_id'])
      assert.match(text.id, UUID)
      assert.deepEqual([text.name, text.file_name, text.mime_type, text.size, text.user_id], ['notes.txt', `${text.id}.txt`, 'text/plain', 12, d.alice.user.id])
      assert.match(text.created_at, DATETIME)
      assert.ok(existsSync(join(h.storageDir, text.file_name)))
      const png = expectStatus(await upload(h, d.alice.token, PNG, 'evil.html', 'text/html'), 201).data
      assert.deepEqual([png.mime_type, png.file_name], ['image/png', `${png.id}.png`])
      const html = expectStatus(await upload(h, d.alice.token, Buffer.from('<html><script>alert(1)</script></html>'), 'page.html', 'text/html'), 201).data
      assert.deepEqual([html.mime_type, html.file_name], ['text/plain', `${html.id}.txt`])
      const binary = expectStatus(await upload(h, d.alice.token, Buffer.from([0, 1, 2, 3, 255, 0]), 'blob', 'application/x-msdownload'), 201).data
      assert.deepEqual([binary.mime_type, binary.file_name], ['application/octet-stream', `${binary.id}.bin`])
      assert.deepEqual(storedFiles(h), [text, png, html, binary].map((a) => a.file_name).sort())
      expectStatus(await h.inject({ method: 'GET', url: `/api/v1/attachments/${text.id}`, token: d.alice.token }), 200)
    })

    it('refuses uploads without a file (422), empty ones (422) and anonymous ones (401)', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/attachments', token: d.alice.token, payload: { file: 'x' } }), 'file')
      const wrongField = multipart(Buffer.from('x'), 'a.txt', 'text/plain', 'document')
      expectValidation(await h.inject({ method: 'POST', url: '/api/v1/attachments', token: d.alice.token, headers: wrongField.headers, payload: wrongField.payload }), 'file')
      expectValidation(await upload(h, d.alice.token, Buffer.alloc(0), 'empty.txt'), 'file')
      const body = multipart(Buffer.from('x'))
      expectUnauthenticated(await h.inject({ method: 'POST', url: '/api/v1/attachments', headers: body.headers, payload: body.payload }))
      assert.deepEqual(storedFiles(h), [])
    })

    it('refuses 31 MB with 413 while streaming and leaves no file behind; 30 MB exactly is accepted', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const tooLarge = await upload(h, d.alice.token, Buffer.alloc(31 * MB, 0x61), 'big.txt', 'text/plain')
      assert.match(expectError(tooLarge, 413).message, /30 MB/)
      assert.deepEqual(storedFiles(h), [])
      const oneByteOver = await upload(h, d.alice.token, Buffer.alloc(30 * MB + 1, 0x61), 'big.txt', 'text/plain')
      expectError(oneByteOver, 413)
      assert.deepEqual(storedFiles(h), [])
      const exact = expectStatus(await upload(h, d.alice.token, Buffer.alloc(30 * MB, 0x61), 'big.txt', 'text/plain'), 201).data
      assert.equal(exact.size, 30 * MB)
      assert.deepEqual(storedFiles(h), [exact.file_name])
    })

    it('downloads the bytes with the stored type, as an attachment with a safely encoded name, nosniff', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const created = expectStatus(await upload(h, d.alice.token, PNG, 'résumé "final";.png', 'application/pdf'), 201).data
      const res = await h.inject({ method: 'GET', url: `/api/v1/attachments/${created.id}/download`, token: d.alice.token })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['content-type'], 'image/png')
      assert.equal(res.headers['x-content-type-options'], 'nosniff')
      assert.equal(res.headers['content-disposition'], 'attachment; filename="r_sum_ _final_;.png"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9%20%22final%22%3B.png')
      assert.deepEqual(res.rawPayload, PNG)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/attachments/not-a-uuid/download', token: d.alice.token }), 404)
      expectError(await h.inject({ method: 'GET', url: '/api/v1/attachments/00000000-0000-4000-8000-000000000000/download', token: d.alice.token }), 404)
    })

    it('shows an attachment to its uploader, staff, and whoever can see its ticket or comment; 404 to others', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const seen = async (token: string, id: string) => (await h.inject({ method: 'GET', url: `/api/v1/attachments/${id}`, token })).statusCode
      const download = async (token: string, id: string) => (await h.inject({ method: 'GET', url: `/api/v1/attachments/${id}/download`, token })).statusCode
      const unlinked = await uploadId(h, d.alice.token)
      assert.deepEqual([await seen(d.alice.token, unlinked), await seen(d.agent.token, unlinked), await seen(d.bob.token, unlinked)], [200, 200, 404])
      const onTicket = await uploadId(h, d.alice.token)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, attachments: [onTicket] })
      const onPrivateReply = await uploadId(h, d.agent.token)
      await postComment(h, d.agent.token, ticket.id, { private: true, attachments: [onPrivateReply] })
      const onNote = await uploadId(h, d.agent.token)
      await postComment(h, d.agent.token, ticket.id, { type: 2, attachments: [onNote] })
      const onReply = await uploadId(h, d.agent.token)
      await postComment(h, d.agent.token, ticket.id, { attachments: [onReply] })
      // Bob cannot see Alice's private ticket, so none of its files.
      for (const id of [onTicket, onPrivateReply, onNote, onReply]) {
        assert.equal(await seen(d.bob.token, id), 404)
        assert.equal(await download(d.bob.token, id), 404)
      }
      // Alice sees her ticket's files and the replies', never the note's.
      assert.deepEqual([await seen(d.alice.token, onTicket), await seen(d.alice.token, onPrivateReply), await seen(d.alice.token, onReply), await seen(d.alice.token, onNote)], [200, 200, 200, 404])
      assert.equal(await download(d.alice.token, onNote), 404)
      // Public now: Bob sees the ticket's and the public reply's files, not the private reply's or the note's.
      await h.helpdesk.tickets.setPrivate(d.alice.user, ticket.id, false)
      assert.deepEqual([await seen(d.bob.token, onTicket), await seen(d.bob.token, onReply), await seen(d.bob.token, onPrivateReply), await seen(d.bob.token, onNote)], [200, 200, 404, 404])
      assert.equal(await download(d.bob.token, onReply), 200)
      const listed = expectStatus(await h.inject({ method: 'GET', url: '/api/v1/tickets?include=attachments', token: d.bob.token }), 200).data[0]
      assert.deepEqual(listed.attachments.map((a: { id: string }) => a.id), [onTicket])
    })

    it('deletes an attachment and its file: its uploader and administrators only', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const mine = await uploadId(h, d.alice.token)
      const agents = await uploadId(h, d.agent.token)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, attachments: [mine] })
      await postComment(h, d.agent.token, ticket.id, { attachments: [agents] })
      const del = async (token: string, id: string) => await h.inject({ method: 'DELETE', url: `/api/v1/attachments/${id}`, token })
      expectError(await del(d.bob.token, mine), 404)
      expectError(await del(d.agent.token, mine), 403)
      expectError(await del(d.alice.token, agents), 403)
      assert.equal(storedFiles(h).length, 2)
      assert.deepEqual(expectStatus(await del(d.alice.token, mine), 200), { success: true })
      assert.deepEqual(expectStatus(await del(d.admin.token, agents), 200), { success: true })
      assert.deepEqual(storedFiles(h), [])
      expectError(await h.inject({ method: 'GET', url: `/api/v1/attachments/${mine}`, token: d.alice.token }), 404)
      expectError(await del(d.alice.token, mine), 404)
    })

    it('prunes attachments left unlinked for more than 24 hours, with their files', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const stale = await uploadId(h, d.alice.token)
      const linked = await uploadId(h, d.alice.token)
      await postTicket(h, d.alice.token, { category: d.billing, attachments: [linked] })
      await h.store.knex('attachments').update({ created_at: '2000-01-01 00:00:00' })
      const fresh = await uploadId(h, d.alice.token)
      assert.equal(await h.helpdesk.attachments.pruneUnlinked(), 1)
      assert.equal(await h.store.attachments.findById(stale), null)
      assert.ok(await h.store.attachments.findById(linked) !== null)
      assert.ok(await h.store.attachments.findById(fresh) !== null)
      assert.equal(storedFiles(h).length, 2)
    })

    it('deleting a customer removes the files of their tickets and comments, and no one else\'s', async (t) => {
      const h = await buildApp(t, dialect)
      const d = await desk(h)
      const onTicket = await uploadId(h, d.alice.token)
      const ticket = await postTicket(h, d.alice.token, { category: d.billing, attachments: [onTicket] })
      const onReply = await uploadId(h, d.admin.token)
      await postComment(h, d.admin.token, ticket.id, { attachments: [onReply] })
      const bobs = await uploadId(h, d.bob.token)
      await postTicket(h, d.bob.token, { category: d.billing, attachments: [bobs] })
      assert.equal(storedFiles(h).length, 3)
      expectStatus(await h.inject({ method: 'DELETE', url: `/api/v1/customers/${d.alice.user.id}`, token: d.admin.token }), 200)
      const left = storedFiles(h)
      assert.equal(left.length, 1)
      assert.ok(left[0]?.startsWith(bobs))
    })
  })
})
