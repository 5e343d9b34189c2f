import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { testDialects } from '@helpdesk/store-knex'
import { run } from '../src/program.js'
import { captureIo, testDatabase } from './in-process.js'

const sample = fileURLToPath(new URL('../../../examples/import/sample.jsonl', import.meta.url))


for (const dialect of testDialects()) {
  describe(`helpdesk import on ${dialect}`, () => {
    it('imports the example file once, and a second run creates nothing', async (t) => {
      const db = await testDatabase(t, dialect)
      const first = captureIo()
      assert.equal(await run(['import', sample, '--database', db.url, '--json'], first), 0, first.stderr.join('\n'))
      const job = JSON.parse(first.stdout[0] ?? '{}') as { status: string, processed: number, created: number }
      assert.equal(job.status, 'completed')
      assert.ok(job.created > 0)
      const second = captureIo()
      assert.equal(await run(['import', sample, '--database', db.url, '--json'], second), 0)
      const again = JSON.parse(second.stdout[0] ?? '{}') as { processed: number, created: number }
      assert.equal(again.processed, job.processed)
      assert.equal(again.created, 0)
    })

    it('fails in one line naming the bad record, with exit code 1', async (t) => {
      const db = await testDatabase(t, dialect)
      const dir = mkdtempSync(join(tmpdir(), 'helpdesk-import-'))
      const file = join(dir, 'bad.jsonl')
      writeFileSync(file, [
        JSON.stringify({ type: 'customer', id: 'c1', first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' }),
        JSON.stringify({ type: 'customer', id: 'c2', first_name: 'Bob', last_name: 'Ray', email: 'not-an-email' })
      ].join('\n') + '\n')
      const io = captureIo()
      assert.equal(await run(['import', file, '--database', db.url], io), 1)
      assert.equal(io.stderr.length, 1)
      assert.match(io.stderr[0] ?? '', /^error: import failed: Line 2: .*email/i)
    })

    it('refuses a missing file and a bad option', async () => {
      const io = captureIo()
      assert.equal(await run(['import', '/nonexistent.jsonl'], io), 1)
      assert.deepEqual(io.stderr, ['error: file /nonexistent.jsonl does not exist'])
      const bad = captureIo()
      assert.equal(await run(['import', sample, '--batch-size', '0'], bad), 1)
      assert.match(bad.stderr[0] ?? '', /--batch-size must be an integer/)
    })
  })
}
