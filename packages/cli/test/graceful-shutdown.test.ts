import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { createKnexStore, testDialects } from '@helpdesk/store-knex'
import { adminToken, deployment, killServer, startServer } from './server-process.js'

const KB = 1024

/** A raw HTTP upload whose body the test sends piece by piece, so it stays in flight as long as the test wants. */
async function slowUpload (url: string, token: string, size: number): Promise<{ socket: Socket, send: (bytes: number) => Promise<void>, finish: () => Promise<string> }> {
  const { hostname, port, pathname } = new URL(`${url}/attachments`)
  const boundary = `----slow${randomBytes(6).toString('hex')}`
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const socket = connect(Number(port), hostname)
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve).once('error', reject) })
  let answer = ''
  socket.on('data', (data: Buffer) => { answer += data.toString() })
  const closed = new Promise<void>((resolve) => { socket.once('close', () => { resolve() }) })
  socket.write(`POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + size + tail.length}\r\n\r\n`)
  socket.write(head)
  return {
    socket,
    send: async (bytes) => { await new Promise<void>((resolve) => { socket.write(Buffer.alloc(bytes, 0x61), () => { resolve() }) }) },
    finish: async () => {
      socket.write(tail)
      await closed
      return answer
    }
  }
}

/** Resolves once the server is writing the upload's file: the request is in its hands, not just in a socket buffer. */
async function uploadStarted (storage: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (!existsSync(storage) || readdirSync(storage).length === 0) {
    assert.ok(Date.now() < deadline, 'the server did not start on the upload within 5 s')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Whether a new TCP connection to the server's port is refused. */
async function refused (url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return await new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => { socket.destroy(); resolve(false) })
    socket.once('error', (error: NodeJS.ErrnoException) => { resolve(error.code === 'ECONNREFUSED') })
  })
}

for (const dialect of testDialects()) {
  describe(`graceful shutdown on ${dialect}`, () => {
    it('on SIGTERM stops accepting, finishes the request in flight (writing to the database), closes the pool and exits 0', async (t) => {
      const { databaseUrl, storage } = await deployment(t, dialect)
      const server = await startServer(databaseUrl, storage)
      t.after(async () => { await killServer(server) })
      const token = await adminToken(server)

      const upload = await slowUpload(server.url, token, 64 * KB)
      await upload.send(16 * KB)
      await uploadStarted(storage)
      server.child.kill('SIGTERM')
      // The listener closes at once: a new connection is refused while the upload is still going.
      const deadline = Date.now() + 5000
      while (!await refused(server.url)) {
        assert.ok(Date.now() < deadline, 'the server still accepts connections 5 s after SIGTERM')
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.equal(server.child.exitCode, null, 'the process waits for the request in flight')
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        await upload.send(16 * KB)
      }
      const answer = await upload.finish()
      assert.match(answer, /^HTTP\/1\.1 201 /, answer)
      const id = /"id":"([0-9a-f-]{36})"/.exec(answer)?.[1]
      const { code, signal } = await server.exited
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, server.stderr())
      assert.match(server.stderr(), /Received SIGTERM/)

      if (dialect === 'sqlite') {
        // SQLite removes the write-ahead log when the last connection closes cleanly; a killed process leaves it.
        assert.equal(existsSync(`${databaseUrl.replace(/^sqlite:/, '')}-wal`), false, 'the database was closed cleanly')
      }
      // The upload's row was written after SIGTERM: the pool stayed open for it, and was closed after.
      const store = createKnexStore({ url: databaseUrl })
      t.after(async () => { await store.close() })
      assert.ok(id !== undefined && await store.attachments.findById(id) !== null, 'the in-flight upload was stored')
    })

    it('does not wait forever for a client that stalls: open connections are cut after the grace period', async (t) => {
      const { databaseUrl, storage } = await deployment(t, dialect)
      const server = await startServer(databaseUrl, storage, { HELPDESK_SHUTDOWN_GRACE_MS: '1000' })
      t.after(async () => { await killServer(server) })
      const token = await adminToken(server)
      const stalled = await slowUpload(server.url, token, 64 * KB)
      t.after(() => { stalled.socket.destroy() })
      await stalled.send(8 * KB)
      await uploadStarted(storage)
      const start = Date.now()
      server.child.kill('SIGTERM')
      const { code } = await server.exited
      const took = Date.now() - start
      assert.equal(code, 0, server.stderr())
      assert.ok(took >= 900 && took < 5000, `exited after ${took} ms`)
      assert.match(server.stderr(), /open connection/)
      const store = createKnexStore({ url: databaseUrl })
      t.after(async () => { await store.close() })
      assert.equal(Number((await store.knex('attachments').count({ n: '*' }).first() as { n: number | string }).n), 0, 'the cut upload left no row')
      assert.deepEqual(existsSync(storage) ? readdirSync(storage) : [], [], 'the cut upload left no file')
    })
  })
}
