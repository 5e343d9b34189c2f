import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import {
  createArgon2Hasher, createHelpdesk, createLocalFileStorage, Role, SYSTEM,
  type Clock, type Helpdesk, type User
} from '@helpdesk/core'
import type { KnexStore } from '../src/index.js'
import { testStore } from './test-store.js'

/** A clock the test moves. */
export class ManualClock implements Clock {
  constructor (public ms: number) {}
  now (): Date { return new Date(this.ms) }
  set (at: string): void { this.ms = Date.parse(`${at.replace(' ', 'T')}Z`) }
}

export interface ReportDesk {
  helpdesk: Helpdesk
  store: KnexStore
  clock: ManualClock
  admin: User
  agent: User
  /** An agent of `sales` only. */
  seller: User
  alice: User
  bob: User
  billing: number
  sales: number
  files: string
}

const hasher = createArgon2Hasher({ memoryCost: 1024, timeCost: 1 })
let counter = 0

export async function reportDesk (t: TestContext, dialect: 'sqlite' | 'postgres', start = '2026-03-02 08:00:00'): Promise<ReportDesk> {
  const clock = new ManualClock(0)
  clock.set(start)
  const { store } = await testStore(t, dialect, { clock })
  const files = mkdtempSync(join(tmpdir(), 'helpdesk-reports-'))
  t.after(() => { rmSync(files, { recursive: true, force: true }) })
  const helpdesk = createHelpdesk({ store, hasher, clock, fileStorage: createLocalFileStorage(files) })
  const make = async (role: 'admin' | 'agent' | 'customer', first: string): Promise<User> => {
    const input = { first_name: first, last_name: `L${++counter}`, email: `${first.toLowerCase()}${++counter}@reports.test`, password: 'secret123' }
    return role === 'customer'
      ? await helpdesk.customers.create(SYSTEM, input, false)
      : await helpdesk.agents.create(SYSTEM, input, role === 'admin' ? Role.Admin : Role.Agent, false)
  }
  const admin = await make('admin', 'Ada')
  const agent = await make('agent', 'Gus')
  const seller = await make('agent', 'Sam')
  const alice = await make('customer', 'Alice')
  const bob = await make('customer', 'Bob')
  const billing = (await helpdesk.categories.create(admin, { name: 'Billing' })).id
  const sales = (await helpdesk.categories.create(admin, { name: 'Sales' })).id
  await helpdesk.agents.setCategories(admin, agent.id, [billing])
  await helpdesk.agents.setCategories(admin, seller.id, [sales])
  return { helpdesk, store, clock, admin, agent, seller, alice, bob, billing, sales, files }
}

/** Writes `lines` as a JSONL file and imports it. */
export async function importLines (d: ReportDesk, lines: object[]): Promise<void> {
  const path = join(d.files, `import-${++counter}.jsonl`)
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'))
  const job = await d.helpdesk.imports.importFile(path, { format: 'jsonl' })
  if (job.status !== 'completed') throw new Error(`import failed: ${job.message ?? ''}`)
}
