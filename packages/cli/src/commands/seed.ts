import { Command } from 'commander'
import { Role, type Helpdesk, type User } from '@helpdesk/core'
import { databaseUrl } from '../config.js'
import type { CliIo } from '../io.js'
import { withHelpdesk } from '../open-store.js'

/** The demo accounts `helpdesk seed` creates (printed, and used by the README's curl tour). */
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'admin@example.com', password: 'admin-password', first_name: 'Ada', last_name: 'Admin' },
  { role: 'agent', email: 'agent@example.com', password: 'agent-password', first_name: 'Alan', last_name: 'Agent' },
  { role: 'customer', email: 'customer@example.com', password: 'customer-password', first_name: 'Cleo', last_name: 'Customer' }
] as const

export const DEMO_CATEGORIES = ['General', 'Billing', 'Technical support']

async function ensureUser (helpdesk: Helpdesk, account: typeof DEMO_ACCOUNTS[number]): Promise<{ user: User, created: boolean }> {
  const existing = await helpdesk.context.store.users.findByEmail(account.email)
  if (existing !== null) return { user: existing, created: false }
  const input = { first_name: account.first_name, last_name: account.last_name, email: account.email, password: account.password }
  const user = account.role === 'customer'
    ? await helpdesk.customers.create(null, input, false)
    : await helpdesk.agents.create(null, input, account.role === 'admin' ? Role.Admin : Role.Agent, false)
  return { user, created: true }
}

/** Demo data: an administrator, an agent (assigned to every demo category), a customer, categories. Idempotent. */
export async function seed (options: { database?: string, json?: boolean }, io: CliIo): Promise<void> {
  await withHelpdesk(databaseUrl(options.database), async (helpdesk) => {
    const users = []
    for (const account of DEMO_ACCOUNTS) users.push({ account, ...await ensureUser(helpdesk, account) })
    const existing = await helpdesk.context.store.categories.list({ include: [], sort: [], partial: {}, exact: {}, page: 1, perPage: 100 })
    const names = new Set(existing.items.map((c) => c.name))
    const categoryIds = existing.items.filter((c) => DEMO_CATEGORIES.includes(c.name)).map((c) => c.id)
    for (const name of DEMO_CATEGORIES) {
      if (!names.has(name)) categoryIds.push((await helpdesk.categories.create(null, { name })).id)
    }
    const agent = users.find((u) => u.account.role === 'agent')
    if (agent !== undefined) await helpdesk.context.store.users.setCategories(agent.user.id, categoryIds)
    if (options.json === true) {
      io.out(JSON.stringify({ accounts: DEMO_ACCOUNTS.map(({ role, email, password }) => ({ role, email, password })), categories: categoryIds }))
      return
    }
    io.out('Demo data ready. Accounts (email / password):')
    for (const { account, created } of users) {
      io.out(`  ${account.role.padEnd(8)} ${account.email} / ${account.password}${created ? '' : ' (already existed; password unchanged)'}`)
    }
    io.out(`  categories: ${DEMO_CATEGORIES.join(', ')}`)
  })
}

export function seedCommand (io: CliIo): Command {
  return new Command('seed')
    .description('Create demo accounts and categories (idempotent)')
    .option('--database <url>', 'sqlite:PATH or postgres://... (env HELPDESK_DATABASE_URL)')
    .option('--json', 'print the created accounts as JSON')
    .addHelpText('after', '\nExample:\n  helpdesk seed && helpdesk serve')
    .action(async (options: { database?: string, json?: boolean }) => { await seed(options, io) })
}
