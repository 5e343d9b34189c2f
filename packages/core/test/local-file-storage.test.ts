import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { createLocalFileStorage } from '../src/files/local-file-storage.js'

function scratch (t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-files-'))
  t.after(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

/**
 * A source that fails on its first read, as an upload over its limit does,
 * noting whether the file was already there when the bytes were first asked for.
 */
function refusedAtOnce (path: string, seen: { fileExisted?: boolean }): Readable {
  return new Readable({
    read () {
      seen.fileExisted ??= existsSync(path)
      this.destroy(new Error('refused midway'))
    }
  })
}

describe('local file storage', () => {
  it('writes a file under its key and reads it back', async (t) => {
    const dir = scratch(t)
    const files = createLocalFileStorage(dir)
    assert.deepEqual(await files.write(Readable.from([Buffer.from('hello')]), 'a.txt'), { key: 'a.txt', size: 5 })
    const stream = await files.read('a.txt')
    assert.ok(stream !== null)
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    assert.equal(Buffer.concat(chunks).toString(), 'hello')
    assert.equal(await files.read('missing.txt'), null)
  })

  it('opens the file before reading the source, so a failed write leaves nothing behind once it has rejected', async (t) => {
    // A write stream opening its own file could still be creating it after a failed pipeline had settled:
    // the removal then came first and the file stayed (a rare race, seen under a busy libuv thread pool).
    const dir = scratch(t)
    const files = createLocalFileStorage(dir)
    for (let i = 0; i < 20; i++) {
      const seen: { fileExisted?: boolean } = {}
      await assert.rejects(files.write(refusedAtOnce(join(dir, `f${i}.txt`), seen), `f${i}.txt`), /refused midway/)
      assert.equal(seen.fileExisted, true, `attempt ${i}: opened before streaming`)
      assert.deepEqual(readdirSync(dir), [], `attempt ${i}: removed by the time the write rejects`)
    }
  })

  it('never overwrites or removes a file that already holds the key', async (t) => {
    const dir = scratch(t)
    writeFileSync(join(dir, 'taken.txt'), 'first')
    const files = createLocalFileStorage(dir)
    const second = Readable.from([Buffer.from('second')])
    await assert.rejects(files.write(second, 'taken.txt'), { code: 'EEXIST' })
    assert.ok(second.destroyed, 'the unread content is let go')
    assert.deepEqual(readdirSync(dir), ['taken.txt'])
    const stream = await files.read('taken.txt')
    assert.ok(stream !== null)
    let text = ''
    for await (const chunk of stream) text += String(chunk)
    assert.equal(text, 'first')
  })

  it('refuses keys that could leave the directory', async (t) => {
    const files = createLocalFileStorage(scratch(t))
    for (const key of ['../x.txt', '.hidden', 'a/b.txt', '']) {
      await assert.rejects(files.write(Readable.from([Buffer.from('x')]), key), /Invalid file storage key/)
    }
  })
})
