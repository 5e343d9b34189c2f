import { describe, it, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { eventually } from '@helpdesk/core/testing'
import { randomBytes } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { resolve as resolvePath } from 'node:path'
import { connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { buildApp, eachDialect } from './helpers.js'
import { expectError, expectStatus } from './http-assertions.js'
import { snapshotCounter } from './security/row-counts.js'
import { multipart, PNG, storedFiles, upload } from './ticket-fixtures.js'

const MB = 2 ** 20
const UUID_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]+$/

/**
 * An app listening on a free loopback port (uploads over a real socket, which
 * a client can cut), a customer's token, and the row and file counts before.
 */
async function listeningApp (t: TestContext, dialect: 'sqlite' | 'postgres') {
  const h = await buildApp(t, dialect)
  const { token } = await h.user('customer')
  await h.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (h.app.server.address() as AddressInfo).port
  const counts = await snapshotCounter(h)
  return { h, token, port, counts, before: await counts() }
}

/** Opens a socket and sends the head of a multipart upload announcing `announced` bytes of file. */
async function startUpload (port: number, token: string, announced: number, headers: Record<string, string> = {}): Promise<{ socket: Socket, received: () => string }> {
  const boundary = `----abort${randomBytes(6).toString('hex')}`
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
  const tail = `\r\n--${boundary}--\r\n`
  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve).once('error', reject) })
  let text = ''
  socket.on('data', (data: Buffer) => { text += data.toString('latin1') })
  socket.on('error', () => {})
  const lengthHeader = headers['transfer-encoding'] === 'chunked' ? {} : { 'content-length': String(Buffer.byteLength(head) + announced + Buffer.byteLength(tail)) }
  const allHeaders = { host: '127.0.0.1', authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, ...lengthHeader, ...headers }
  socket.write(`POST /api/v1/attachments HTTP/1.1\r\n${Object.entries(allHeaders).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`)
  socket.write(headers['transfer-encoding'] === 'chunked' ? asChunk(Buffer.from(head)) : head)
  return { socket, received: () => text }
}

/** One piece of a `Transfer-Encoding: chunked` body. */
function asChunk (data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')])
}

/** Writes and lets the event loop turn, so the client sees the server's answer as soon as it comes. */
async function writeAll (socket: Socket, data: Buffer): Promise<void> {
  await new Promise<void>((resolve) => { if (socket.write(data)) resolve(); else socket.once('drain', resolve) })
  await new Promise((resolve) => setTimeout(resolve, 1))
}

eachDialect((dialect) => {
  describe(`hostile uploads on ${dialect}`, () => {
    it('keeps client file names as display names only: no path, no control characters, at most 250 characters', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('customer')
      const cases: Array<[string, (name: string) => boolean]> = [
        ['../../../../etc/passwd', (name) => name === 'passwd'],
        ['..\\..\\windows\\win.ini', (name) => name === 'win.ini'],
        ['../', (name) => name === 'file'],
        ['....//....//x.txt', (name) => name === 'x.txt'],
        ['%2e%2e%2fsecret.txt', (name) => name === '%2e%2e%2fsecret.txt'],
        ['tab\there\u0001\u001f\u007fend.txt', (name) => name === 'tabhereend.txt'],
        ['nul\u0000byte.txt', (name) => name === 'nulbyte.txt'],
        ['é'.repeat(500) + '.txt', (name) => [...name].length === 250 && name === 'é'.repeat(250)],
        ['a'.repeat(496) + '.txt', (name) => name.length === 250],
        // Bidirectional controls would show `invoice\u202Efdp.exe` as "invoiceexe.pdf".
        ['invoice\u202Efdp.exe', (name) => name === 'invoicefdp.exe'],
        ['a\u2066b\u2069c\u200F.txt', (name) => name === 'abc.txt'],
        ['  ', (name) => name === 'file']
      ]
      // Where each name would land if it were used as a file path: nothing there may appear or change.
      const targets = cases.map(([clientName]) => clientName.replace(/\\/g, '/')).filter((path) => !path.endsWith('/')).map((path) => resolvePath(h.storageDir, path))
      const stateOf = (path: string): string => existsSync(path) ? `${statSync(path).size}:${statSync(path).mtimeMs}` : 'absent'
      const before = targets.map(stateOf)
      for (const [clientName, expected] of cases) {
        const attachment = expectStatus(await upload(h, token, Buffer.from('some text\n'), clientName, 'text/plain'), 201).data
        assert.ok(expected(attachment.name), `${JSON.stringify(clientName)} became ${JSON.stringify(attachment.name)}`)
        // eslint-disable-next-line no-control-regex
        assert.doesNotMatch(attachment.name, /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069/\\]/)
        assert.match(attachment.file_name, UUID_NAME, 'the stored name is generated, never the client\'s')
        const download = await h.inject({ method: 'GET', url: `/api/v1/attachments/${attachment.id}/download`, token })
        assert.equal(download.statusCode, 200)
        const disposition = String(download.headers['content-disposition'])
        assert.match(disposition, /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]*$/, disposition)
        assert.equal(download.headers['x-injected'], undefined)
      }
      // A line break in the name (RFC 5987 encoded) makes the part no file at all: refused, nothing stored.
      const crlf = multipart(Buffer.from('some text\n'), 'line\r\nX-Injected: yes.txt', 'text/plain')
      const refused = await h.inject({ method: 'POST', url: '/api/v1/attachments', token, headers: crlf.headers, payload: crlf.payload })
      assert.ok(refused.statusCode === 422 || (refused.statusCode === 201 && !/[\r\n]/.test(refused.json().data.name)), refused.body)
      if (refused.statusCode === 201) cases.push(['', () => true])
      assert.equal(storedFiles(h).length, cases.length)
      assert.ok(storedFiles(h).every((name) => UUID_NAME.test(name)))
      assert.deepEqual(targets.map(stateOf), before, 'nothing was written where a client-given path points')
    })

    it('trusts the bytes, not the claimed type: HTML and scripts come back as inert text, downloads only', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('customer')
      const forged: Array<[Buffer, string, string, string]> = [
        [Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>'), 'page.html', 'text/html', 'text/plain'],
        [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'image.svg', 'image/svg+xml', 'text/plain'],
        [Buffer.from('alert(1)'), 'x.js', 'application/javascript', 'text/plain'],
        [Buffer.from('plain words'), 'photo.png', 'image/png', 'text/plain'],
        [PNG, 'notes.txt', 'text/plain', 'image/png'],
        [Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]), 'setup.pdf', 'application/pdf', 'application/x-msdownload'],
        [Buffer.from([0, 1, 2, 3, 255]), 'page.html', 'text/html', 'application/octet-stream']
      ]
      for (const [content, name, claimed, stored] of forged) {
        const attachment = expectStatus(await upload(h, token, content, name, claimed), 201).data
        assert.equal(attachment.mime_type, stored, `${name} claimed ${claimed}`)
        const download = await h.inject({ method: 'GET', url: `/api/v1/attachments/${attachment.id}/download`, token })
        assert.equal(download.headers['content-type'], stored)
        assert.equal(download.headers['x-content-type-options'], 'nosniff')
        assert.match(String(download.headers['content-disposition']), /^attachment;/)
        assert.match(String(download.headers['content-security-policy']), /default-src 'none'; sandbox/)
        assert.deepEqual(download.rawPayload, content)
      }
    })

    it('refuses a multipart body without a file part, with only other fields, or with a broken boundary, writing nothing', async (t) => {
      const h = await buildApp(t, dialect)
      const { token } = await h.user('customer')
      const counts = await snapshotCounter(h)
      const before = await counts()
      const onlyField = Buffer.from('--b\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--b--\r\n')
      const brokenBoundary = Buffer.from('--other\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--other--\r\n')
      for (const payload of [onlyField, brokenBoundary, Buffer.alloc(0)]) {
        const res = await h.inject({ method: 'POST', url: '/api/v1/attachments', token, headers: { 'content-type': 'multipart/form-data; boundary=b' }, payload })
        assert.ok([400, 422].includes(res.statusCode), `${res.statusCode} ${res.body}`)
        expectError(res, res.statusCode)
      }
      assert.deepEqual(await counts(), before)
    })

    it('leaves nothing behind when the client aborts an upload mid-stream, and keeps serving', async (t) => {
      const { h, token, port, counts, before } = await listeningApp(t, dialect)
      for (const chunked of [false, true]) {
        const { socket } = await startUpload(port, token, 20 * MB, chunked ? { 'transfer-encoding': 'chunked' } : {})
        try {
          const piece = randomBytes(256 * 1024)
          for (let sent = 0; sent < 4 * MB; sent += piece.length) await writeAll(socket, chunked ? asChunk(piece) : piece)
          // Bytes are on disk by now: the upload streams to its file as it arrives.
          await eventually('the upload to start writing its file', () => storedFiles(h).length === 1, { timeoutMs: 5000 })
        } finally {
          socket.destroy()
        }
        await eventually('the partial file to be removed', () => storedFiles(h).length === 0, { timeoutMs: 5000 })
        assert.deepEqual(await counts(), before, 'no row from the aborted upload')
      }
      const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
      assert.equal(health.status, 200)
      const body = multipart(Buffer.from('after the abort\n'), 'after.txt', 'text/plain')
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/attachments`, { method: 'POST', headers: { ...body.headers, authorization: `Bearer ${token}` }, body: body.payload })
      assert.equal(ok.status, 201)
      assert.equal(storedFiles(h).length, 1)
    })

    it('answers 413 over the wire while the body is still arriving, with nothing on disk', async (t) => {
      const { h, token, port, counts, before } = await listeningApp(t, dialect)
      const announced = 64 * MB
      const { socket, received } = await startUpload(port, token, announced)
      try {
        const piece = Buffer.alloc(MB, 0x61)
        let sent = 0
        // Send until the server answers, which it must do long before the announced 64 MB are through.
        while (received() === '' && sent < announced && !socket.destroyed) {
          await writeAll(socket, piece)
          sent += piece.length
        }
        await eventually('the whole answer', () => received().includes('}'), { timeoutMs: 5000 })
        const text = received()
        assert.match(text, /^HTTP\/1\.1 413 /, `the answer: ${text.slice(0, 200)}`)
        assert.match(text, /"message":"The file may not be greater than 30 MB\."/)
        // 30 MB and what the socket buffers hold: refused while streaming, not after reading the whole body.
        assert.ok(sent < announced, `the client had sent ${sent / MB} MB when the refusal came`)
      } finally {
        socket.destroy()
      }
      await eventually('the partial file to be removed', () => storedFiles(h).length === 0, { timeoutMs: 5000 })
      assert.deepEqual(await counts(), before)
    })
  })
})
